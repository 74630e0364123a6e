import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { readCookie } from './cookies.js';
import { assertSameOrigin } from './cross-site-check.js';

/**
 * Runs first among the library's guards on every library route (a class-level guard, so before
 * rate limiting, hooks and handlers; an application's global guards run before it): a request
 * that a library cookie authenticates must come from an allowed origin.
 * The body rules ran before, in `authBodyGate`.
 */
@Injectable()
export class AuthRequestGuard implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    // The cookies as the authentication reads them, with the same parser (docs/decisions/0023-cross-site-requests.md).
    const { sessionName, refreshName, passkeyChallengeName, mfaChallengeName } = this.config.cookie;
    if ([sessionName, refreshName, passkeyChallengeName, mfaChallengeName].some((name) => readCookie(request, name) !== undefined)) assertSameOrigin(request, this.config);
    return true;
  }
}

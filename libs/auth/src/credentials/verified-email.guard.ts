import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import { CREDENTIAL_RESOLVER } from './credential.tokens.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import { AuthError } from '../errors/auth.error.js';
import type { CredentialResolver } from './credential-resolver.js';
import { attachPrincipal, principalOf } from './current-user.guard.js';

/**
 * `@RequireVerifiedEmail()`: the route needs a signed-in user (401 `UNAUTHENTICATED` first, as
 * `CurrentUserGuard`; the credential is resolved once per request, whichever guard comes first)
 * whose email is verified, else 403 `EMAIL_NOT_VERIFIED`. The usual use of
 * `emailVerification.required: false`: read freely, write once verified. Without the
 * `emailVerification` section no email is ever verified, so the application does not start.
 */
@Injectable()
export class VerifiedEmailGuard implements CanActivate {
  constructor(
    @Inject(AUTH_CONFIG) config: AuthConfig,
    @Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver,
  ) {
    if (!config.emailVerification) {
      throw new AuthConfigError('emailVerification', 'is not given, but a route is marked @RequireVerifiedEmail(): no email could ever be verified (give the section; required: false still lets unverified users log in)');
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!principalOf(request)) attachPrincipal(request, await this.resolver.resolve(request, http.getResponse<Response>()));
    if (!principalOf(request)!.user.emailVerifiedAt) throw new AuthError('EMAIL_NOT_VERIFIED', { message: 'Verify your email first' });
    return true;
  }
}

/** Guards a route (or a controller) with `VerifiedEmailGuard`: a signed-in user with a verified email. */
export function RequireVerifiedEmail(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(VerifiedEmailGuard));
}

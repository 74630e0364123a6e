import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { acceptsApiKey } from '../credentials/api-key-access.js';
import { AuthError } from '../errors/auth.error.js';
import { apiKeyOf } from './api-key-token.js';

/**
 * The first guard of every library route while API keys are on: a request presenting a key (by its
 * prefix alone, before any lookup) to a route other than `/me` is refused with 403 `API_KEY_NOT_ALLOWED`,
 * before the cross-site check, the credential, rate limits, body validation, hooks and the handler
 * (docs/decisions/0032-api-keys.md). A key is for the application's routes: it cannot manage keys,
 * sessions, factors or users (OWASP ASVS 5.0 V8.2.1, least privilege).
 */
@Injectable()
export class ApiKeyRefusalGuard implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const settings = this.config.apiKeys;
    if (!settings || context.getType() !== 'http') return true;
    if (acceptsApiKey(context) || apiKeyOf(context.switchToHttp().getRequest<Request>(), settings.prefix) === null) return true;
    throw new AuthError('API_KEY_NOT_ALLOWED');
  }
}

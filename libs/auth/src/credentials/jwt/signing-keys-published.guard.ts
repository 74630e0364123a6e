import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthError } from '../../errors/auth.error.js';
import type { RouteGate } from '../../http/svc-route.decorator.js';

/**
 * `<prefix>/jwks` exists only when access tokens are signed with an asymmetric key
 * (docs/guides/machine-access.md); with HMAC there is nothing public to publish, and the route
 * answers as a path no route matches: 404 `NOT_FOUND`. The OpenAPI document leaves it out then.
 */
@Injectable()
export class SigningKeysPublished implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  static servedWith(this: void, config: AuthConfig): boolean {
    const algorithm = config.jwt?.signing?.algorithm;
    return algorithm !== undefined && algorithm !== 'HS256';
  }

  canActivate(): boolean {
    if (!SigningKeysPublished.servedWith(this.config)) throw new AuthError('NOT_FOUND');
    return true;
  }
}

SigningKeysPublished satisfies RouteGate;

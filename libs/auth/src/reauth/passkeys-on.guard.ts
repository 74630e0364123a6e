import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import type { RouteGate } from '../http/svc-route.decorator.js';

/** The passkey re-authentication exists only with the `passkeys` section: without it, 404 `NOT_FOUND` before anything else. */
@Injectable()
export class PasskeysOn implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  static servedWith(this: void, config: AuthConfig): boolean {
    return config.passkeys !== undefined;
  }

  canActivate(): boolean {
    if (!PasskeysOn.servedWith(this.config)) throw new AuthError('NOT_FOUND');
    return true;
  }
}

PasskeysOn satisfies RouteGate;

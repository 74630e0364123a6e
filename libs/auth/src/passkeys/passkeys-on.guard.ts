import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';

/**
 * The passkey routes exist only with the `passkeys` section; the section may come from an async
 * factory, after the routes were mounted, so without it they answer as a path no route matches:
 * 404 `NOT_FOUND`, before anything else runs.
 */
@Injectable()
export class PasskeysOn implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  canActivate(): boolean {
    if (!this.config.passkeys) throw new AuthError('NOT_FOUND');
    return true;
  }
}

import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import type { RouteGate } from '../http/svc-route.decorator.js';

/**
 * The email routes exist only with the `emailVerification` section; the section may come from an
 * async factory, after the routes were mounted, so without it they answer as a path no route
 * matches: 404 `NOT_FOUND`, before anything else runs. The OpenAPI document leaves them out then.
 */
@Injectable()
export class EmailLifecycleOn implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  static servedWith(this: void, config: AuthConfig): boolean {
    return config.emailVerification !== undefined;
  }

  canActivate(): boolean {
    if (!EmailLifecycleOn.servedWith(this.config)) throw new AuthError('NOT_FOUND');
    return true;
  }
}

EmailLifecycleOn satisfies RouteGate;

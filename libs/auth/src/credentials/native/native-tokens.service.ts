import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { JwtLogout } from '../jwt/jwt-logout.service.js';
import { RefreshOutcomes } from '../jwt/refresh-outcomes.js';
import { RefreshRotation } from '../jwt/refresh-rotation.service.js';
import { isNativeRequest, type NativeTokenBody } from './native-client.js';
import { nativeTokenBody } from './native-credential.js';
import { nativeRefreshTokenOf } from './native-refresh-token.js';

/**
 * POST /refresh and /logout for a native client (docs/guides/machine-access.md): the refresh token
 * comes in the body and the answer sets no cookie, so no cross-site check applies. Rotation, reuse
 * detection and lifetimes are the jwt credential's (RFC 9700 §4.14.2).
 */
@Injectable()
export class NativeTokens {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly rotation: RefreshRotation,
    private readonly outcomes: RefreshOutcomes,
    private readonly logoutFlow: JwtLogout,
    private readonly events: AuthEventPublisher,
  ) {}

  isNative(request: Request): boolean {
    return isNativeRequest(request, this.config);
  }

  /** A new pair for the body's refresh token; 401 `REFRESH_TOKEN_INVALID` for a missing, unknown, consumed or revoked one. */
  async refresh(request: Request): Promise<NativeTokenBody> {
    const token = nativeRefreshTokenOf(request);
    const outcome = token ? await this.rotation.rotate(token) : { kind: 'invalid' as const };
    if (outcome.kind === 'rotated') {
      this.outcomes.rotated(request, outcome);
      return nativeTokenBody(outcome.credential);
    }
    throw this.outcomes.refusal(request, outcome);
  }

  /**
   * Ends the family of the body's refresh token and of a valid bearer token, whichever are presented;
   * always succeeds (idempotent). `hookRan`: the route ran `beforeLogout` already.
   */
  async logout(request: Request, hookRan = false): Promise<void> {
    const loggedOut = await this.logoutFlow.logout(request, nativeRefreshTokenOf(request), !hookRan);
    for (const userId of loggedOut) this.events.publishAfterResponse(request, AuthEvent.LogoutAfter, { userId });
  }

  /** The owner of the presented native credential, for the session route's `beforeLogout`. */
  ownerOf(request: Request) {
    return this.logoutFlow.ownerOf(request, nativeRefreshTokenOf(request));
  }
}

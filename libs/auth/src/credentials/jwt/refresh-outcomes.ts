import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CLOCK, AUTH_CONFIG, SVC_LOGGER } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import type { Clock } from '../../config/clock.js';
import { AuthError } from '../../errors/auth.error.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { clientAddressOf } from '../../http/client-address.js';
import type { RefreshOutcome } from './refresh-rotation.service.js';

type Rotated = Extract<RefreshOutcome, { kind: 'rotated' }>;

/**
 * What a refresh tells once RefreshRotation has decided, the same for the browser's cookie
 * (JwtController) and a native client's body (NativeTokens): the events, the reuse warning, the error.
 */
@Injectable()
export class RefreshOutcomes {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly events: AuthEventPublisher,
  ) {}

  /** A rotation: `svc.refresh.after` once the response is sent. */
  rotated(request: Request, outcome: Rotated): void {
    this.events.publishAfterResponse(request, AuthEvent.RefreshAfter, { userId: outcome.user.id, familyId: outcome.credential.refresh.familyId });
  }

  /**
   * A refresh that issued nothing: the error to answer (401 `USER_INACTIVE` or `REFRESH_TOKEN_INVALID`,
   * never saying which token was wrong). A reuse that has just revoked its family (RFC 9700 §4.14.2)
   * is logged, without the token, and published as `svc.token_reuse_detected`.
   */
  refusal(request: Request, outcome: Exclude<RefreshOutcome, Rotated>): AuthError {
    if (outcome.kind === 'inactive') return new AuthError('USER_INACTIVE');
    if (outcome.kind === 'reused' && outcome.newlyRevoked) {
      const { userId, familyId } = outcome;
      this.logger.warn(`refresh token reuse detected: family ${familyId} of user ${userId} revoked`);
      this.events.publishAfterResponse(request, AuthEvent.TokenReuseDetected, { userId, familyId, ip: clientAddressOf(request, this.config), at: this.clock.now() });
    }
    return new AuthError('REFRESH_TOKEN_INVALID');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { type IssuedToken, SingleUseTokenStore } from '../persistence/single-use-token-store.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import type { UnusedResetLinks } from '../email/password-method.js';

const MINUTE_MS = 60_000;

export type IssuedResetToken = IssuedToken;

/**
 * Rows of `password_reset_tokens` (docs/decisions/0014-password-recovery.md): the single-use-token
 * store with password recovery's rules. Every method runs in the caller's transaction.
 */
@Injectable()
export class ResetTokenStore extends SingleUseTokenStore<PasswordResetToken> implements UnusedResetLinks {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) clock: Clock,
  ) {
    super(PasswordResetToken, clock);
  }

  /** Deletes every token of the user: a newer token supersedes the older ones (docs/decisions/0014-password-recovery.md). */
  discardAllOfUser(manager: EntityManager, userId: string): Promise<void> {
    return this.discard(manager, userId, { unusedOnly: false });
  }

  /** Deletes the user's tokens not yet used (after a password change none may stay valid). */
  discardUnusedOfUser(manager: EntityManager, userId: string): Promise<void> {
    return this.discard(manager, userId, { unusedOnly: true });
  }

  /**
   * Stores a new token when `userId` names an active user whose email is still `email` (a change of
   * email confirmed since the lookup leaves no token for the old one), at the same cost whether a
   * row is written or not (`issueTokenIfActive`).
   */
  issueIfActive(manager: EntityManager, userId: string, email: string): Promise<IssuedResetToken | null> {
    return this.issueTokenIfActive(manager, this.config.userEntity, userId, email, this.config.password.resetTokenTtlMinutes * MINUTE_MS);
  }

  /** The row of a token that is neither used nor expired, or null. */
  findUsable(manager: EntityManager, token: string): Promise<PasswordResetToken | null> {
    return this.findUsableToken(manager, token);
  }
}

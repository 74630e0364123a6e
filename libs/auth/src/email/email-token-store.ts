import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { EmailToken, type EmailTokenPurpose } from '../entities/email-token.entity.js';
import { SingleUseTokenStore } from '../persistence/single-use-token-store.js';

/**
 * Rows of `email_tokens` (docs/decisions/0015-email-verification-and-change-of-email.md): the
 * single-use-token store with the email lifecycle's rules, a token per purpose. Every method runs in
 * the caller's transaction.
 */
@Injectable()
export class EmailTokenStore extends SingleUseTokenStore<EmailToken> {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) clock: Clock,
  ) {
    super(EmailToken, clock);
  }

  /**
   * Stores a new token of `purpose` for the user and returns it (for the mail only). The user's older
   * tokens of that purpose are deleted: only the newest link works. The caller holds the user's row lock,
   * so two concurrent requests leave one token. `cancel` tokens are not superseded: each notice's
   * link cancels whatever change is pending, however many were asked for after it.
   */
  async issue(manager: EntityManager, userId: string, purpose: EmailTokenPurpose, change: { newEmail: string; requestedBy: string | null } | null = null): Promise<string> {
    const fields = { purpose, newEmail: change?.newEmail ?? null, requestedBy: change?.requestedBy ?? null };
    const supersede = purpose !== 'cancel' ? { userId, purpose } : null;
    const { token } = await this.issueToken(manager, userId, this.config.emailVerification!.tokenTtlSeconds * 1000, fields, supersede);
    return token;
  }

  /** The row of a token of `purpose` that is neither used nor expired, or null. */
  findUsable(manager: EntityManager, token: string, purpose: EmailTokenPurpose): Promise<EmailToken | null> {
    return this.findUsableToken(manager, token, { purpose });
  }

  /** Deletes the user's unused tokens, of one purpose or of every one (their links were mailed for an address the user no longer has). */
  discardUnusedOfUser(manager: EntityManager, userId: string, purpose?: EmailTokenPurpose): Promise<void> {
    return this.discard(manager, userId, { unusedOnly: true }, purpose ? { purpose } : {});
  }
}

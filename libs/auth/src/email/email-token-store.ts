import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type EntityManager, IsNull } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { hashToken, randomToken } from '../crypto/opaque-token.js';
import { EmailToken, type EmailTokenPurpose } from '../entities/email-token.entity.js';

/**
 * Rows of `email_tokens` (docs/guides/email.md). Every method runs in the
 * caller's transaction. OWASP Forgot Password Cheat Sheet, applied to mailed links: 256 random bits,
 * stored as SHA-256 and found by that hash, single use, expiring; ASVS 2.5.
 */
@Injectable()
export class EmailTokenStore {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Stores a new token of `purpose` for the user and returns it (for the mail only). The user's older
   * tokens of that purpose are deleted: only the newest link works. The caller holds the user's row lock,
   * so two concurrent requests leave one token. `cancel` tokens are not superseded: each notice's
   * link cancels whatever change is pending, however many were asked for after it.
   */
  async issue(manager: EntityManager, userId: string, purpose: EmailTokenPurpose, change: { newEmail: string; requestedBy: string | null } | null = null): Promise<string> {
    if (purpose !== 'cancel') await manager.delete(EmailToken, { userId, purpose });
    const token = randomToken();
    const now = this.clock.now();
    await manager.insert(EmailToken, {
      id: randomUUID(),
      tokenHash: hashToken(token),
      userId,
      purpose,
      newEmail: change?.newEmail ?? null,
      requestedBy: change?.requestedBy ?? null,
      expiresAt: new Date(now.getTime() + this.config.emailVerification!.tokenTtlSeconds * 1000),
      usedAt: null,
      createdAt: now,
    });
    return token;
  }

  /** The row of a token of `purpose` that is neither used nor expired, or null. */
  findUsable(manager: EntityManager, token: string, purpose: EmailTokenPurpose): Promise<EmailToken | null> {
    return manager
      .createQueryBuilder(EmailToken, 'token')
      .where('token.token_hash = :hash', { hash: hashToken(token) })
      .andWhere('token.purpose = :purpose', { purpose })
      .andWhere('token.used_at IS NULL')
      .andWhere('token.expires_at > :now', { now: this.clock.now() })
      .getOne();
  }

  /** Marks the token used if it still is usable, in one conditional UPDATE: of concurrent uses exactly one wins. */
  async consume(manager: EntityManager, id: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await manager
      .createQueryBuilder()
      .update(EmailToken)
      .set({ usedAt: now })
      .where('id = :id', { id })
      .andWhere('used_at IS NULL')
      .andWhere('expires_at > :now', { now })
      .execute();
    return result.affected === 1;
  }

  /** Deletes the user's unused tokens, of one purpose or of every one (their links were mailed for an address the user no longer has). */
  async discardUnusedOfUser(manager: EntityManager, userId: string, purpose?: EmailTokenPurpose): Promise<void> {
    await manager.delete(EmailToken, { userId, usedAt: IsNull(), ...(purpose ? { purpose } : {}) });
  }

  /** Deletes used and expired tokens (none of them can do anything any more); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(EmailToken)
      .where('used_at IS NOT NULL OR expires_at <= :now', { now: this.clock.now() })
      .execute();
    return result.affected ?? 0;
  }
}

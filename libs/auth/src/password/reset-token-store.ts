import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type EntityManager, IsNull } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import { hashToken, randomToken } from '../crypto/opaque-token.js';
import type { UnusedResetLinks } from '../email/password-method.js';

const MINUTE_MS = 60_000;

export interface IssuedResetToken {
  /** The raw token, for the mail only: the database keeps its SHA-256. */
  token: string;
  expiresAt: Date;
}

/**
 * Rows of `password_reset_tokens` (docs/decisions/0014-password-recovery.md). Every method runs in the caller's transaction.
 * OWASP Forgot Password Cheat Sheet: random, stored hashed, single use, expiring.
 */
@Injectable()
export class ResetTokenStore implements UnusedResetLinks {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /** Deletes every token of the user: a newer token supersedes the older ones (docs/decisions/0014-password-recovery.md). */
  async discardAllOfUser(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(PasswordResetToken, { userId });
  }

  /** Deletes the user's tokens not yet used (after a password change none may stay valid). */
  async discardUnusedOfUser(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(PasswordResetToken, { userId, usedAt: IsNull() });
  }

  /**
   * Stores a new token when `userId` names an active user whose email is still `email` (the address
   * the mail goes to: a change of email confirmed since the lookup leaves no token for the old
   * one), in one INSERT ... SELECT: the same
   * statement and the same work in this process whether a row is written or not, so unknown and
   * inactive emails cost what known ones do (OWASP Forgot Password Cheat Sheet: consistent time).
   */
  async issueIfActive(manager: EntityManager, userId: string, email: string): Promise<IssuedResetToken | null> {
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.password.resetTokenTtlMinutes * MINUTE_MS);
    const { driver } = manager.connection;
    const users = driver.escape(manager.connection.getMetadata(this.config.userEntity).tableName);
    const [sql, parameters] = driver.escapeQueryWithParameters(
      `INSERT INTO password_reset_tokens (id, token_hash, user_id, expires_at, created_at)
       SELECT :id, :tokenHash, owner.id, :expiresAt, :createdAt FROM ${users} owner
       WHERE owner.id = :userId AND owner.is_active = :active AND owner.email = :email
       RETURNING id`,
      { id: randomUUID(), tokenHash: hashToken(token), expiresAt, createdAt: now, userId, active: true, email },
    );
    const inserted: unknown[] = await manager.query(sql, parameters);
    return inserted.length === 1 ? { token, expiresAt } : null;
  }

  /** Deletes used and expired tokens (none of them can reset a password any more); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(PasswordResetToken)
      .where('used_at IS NOT NULL OR expires_at <= :now', { now: this.clock.now() })
      .execute();
    return result.affected ?? 0;
  }

  /** The row of a token that is neither used nor expired, or null. */
  findUsable(manager: EntityManager, token: string): Promise<PasswordResetToken | null> {
    return manager
      .createQueryBuilder(PasswordResetToken, 'token')
      .where('token.token_hash = :hash', { hash: hashToken(token) })
      .andWhere('token.used_at IS NULL')
      .andWhere('token.expires_at > :now', { now: this.clock.now() })
      .getOne();
  }

  /**
   * Marks the token used if it still is usable, in one conditional UPDATE: of concurrent uses
   * exactly one sees an affected row (PostgreSQL re-checks the WHERE after the row lock).
   */
  async consume(manager: EntityManager, id: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await manager
      .createQueryBuilder()
      .update(PasswordResetToken)
      .set({ usedAt: now })
      .where('id = :id', { id })
      .andWhere('used_at IS NULL')
      .andWhere('expires_at > :now', { now })
      .execute();
    return result.affected === 1;
  }
}

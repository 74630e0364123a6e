import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import { RefreshToken } from './refresh-token.entity.js';
import { hashToken, randomToken, constantTimeEqual } from '../../crypto/opaque-token.js';
import type { Principal } from '../credential-resolver.js';
import type { CredentialRevoker } from '../credential-revoker.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { RefreshFamilyStore } from './refresh-family-store.js';

const DAY_MS = 86_400_000;

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  expiresAt: Date;
}

/**
 * Rows of `refresh_tokens` (docs/decisions/0002-schema.md). A family is every token rotated from one login (its
 * row in `refresh_families`); it is revoked as a whole, its tokens and its row, and a family with any
 * revoked token counts as revoked, so a row that a concurrent rotation inserts while the family is
 * being revoked cannot bring it back.
 */
@Injectable()
export class RefreshTokenStore implements CredentialRevoker {
  constructor(
    @Inject(JWT_SETTINGS) private readonly jwt: JwtSettings,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly families: RefreshFamilyStore,
  ) {}

  /** Stages a new token (256-bit random, stored as its SHA-256) in the family `familyId` (`RefreshFamilyStore.start` for a new one). */
  issue(manager: EntityManager, userId: string, familyId: string): Promise<IssuedRefreshToken> {
    return this.stage(manager, userId, familyId, randomUUID(), false);
  }

  findByToken(manager: EntityManager, token: string): Promise<RefreshToken | null> {
    return manager.findOneBy(RefreshToken, { tokenHash: hashToken(token) });
  }

  /** The token's row if it could be presented to /refresh now: neither consumed, revoked nor expired. */
  async findUsable(manager: EntityManager, token: string): Promise<RefreshToken | null> {
    const row = await this.findByToken(manager, token);
    return row && !row.consumedAt && !row.revokedAt && row.expiresAt.getTime() > this.clock.now().getTime() ? row : null;
  }

  findById(manager: EntityManager, id: string): Promise<RefreshToken | null> {
    return manager.findOneBy(RefreshToken, { id });
  }

  /**
   * Single use (docs/decisions/0013-refresh-tokens-jwt.md): marks the token consumed only if nobody did before. Of N concurrent
   * callers exactly one gets true: SQLite runs one transaction at a time, and on PostgreSQL the
   * losers' UPDATE waits for the winner's row lock, re-reads the row and matches nothing.
   */
  async consume(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ consumedAt: this.clock.now() })
      .where('id = :id AND consumed_at IS NULL AND revoked_at IS NULL', { id })
      .execute();
    return result.affected === 1;
  }

  /**
   * The one extra token a consumed token may still get within `refreshReuseGraceSeconds`. Its id is
   * derived from the consumed row's, so the primary key lets exactly one such successor exist; null
   * when another request already took it (the presentation is then a reuse).
   */
  async issueGraceSuccessor(manager: EntityManager, consumed: RefreshToken): Promise<IssuedRefreshToken | null> {
    const id = graceSuccessorId(consumed.id);
    const issued = await this.stage(manager, consumed.userId, consumed.familyId, id, true);
    const stored = await this.findById(manager, id);
    return stored && constantTimeEqual(stored.tokenHash, hashToken(issued.token)) ? issued : null;
  }

  /** True when any row of the family is revoked. */
  isFamilyRevoked(manager: EntityManager, familyId: string): Promise<boolean> {
    return manager
      .createQueryBuilder(RefreshToken, 'token')
      .where('token.familyId = :familyId AND token.revokedAt IS NOT NULL', { familyId })
      .getExists();
  }

  /**
   * Revokes every row of the family, then the family's own row (tokens first: the order a refresh
   * locks them in, so the two never wait for each other); returns how many tokens were live until now.
   */
  async revokeFamily(manager: EntityManager, familyId: string): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ revokedAt: this.clock.now() })
      .where('family_id = :familyId AND revoked_at IS NULL', { familyId })
      .execute();
    await this.families.revoke(manager, { familyId });
    return result.affected ?? 0;
  }

  /** Every family of the user (password reset, log out everywhere). */
  async revokeAllOfUser(manager: EntityManager, userId: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ revokedAt: this.clock.now() })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .execute();
    await this.families.revoke(manager, { userId });
  }

  /** Every family of the user but `keptId` (none kept when null). */
  async revokeAllOfUserExcept(manager: EntityManager, userId: string, keptId: string | null): Promise<void> {
    if (!keptId) return this.revokeAllOfUser(manager, userId);
    await manager
      .createQueryBuilder()
      .update(RefreshToken)
      .set({ revokedAt: this.clock.now() })
      .where('user_id = :userId AND family_id <> :familyId AND revoked_at IS NULL', { userId, familyId: keptId })
      .execute();
    await this.families.revoke(manager, { userId, exceptFamilyId: keptId });
  }

  /** Every family of the user but the one of the presented access token. */
  revokeOthersOfUser(manager: EntityManager, userId: string, kept: Principal): Promise<void> {
    return this.revokeAllOfUserExcept(manager, userId, kept.familyId ?? null);
  }

  /**
   * Deletes what can no longer matter; the caller commits. Retention:
   * - an expired row that is not revoked goes (consumed ones are kept until then, so that a replay
   *   is still recognised as reuse for as long as the token could have been used);
   * - a revoked row stays until every row of its family has expired, as the family's revocation
   *   mark, so at most `refreshTokenExpireDays` after the revocation;
   * - every row of a family past its absolute end goes (docs/decisions/0013-refresh-tokens-jwt.md): nothing of it can be used.
   */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(RefreshToken)
      .where(
        '(expires_at <= :now AND (revoked_at IS NULL OR NOT EXISTS (SELECT 1 FROM refresh_tokens live WHERE live.family_id = refresh_tokens.family_id AND live.expires_at > :now)))' +
          ' OR family_id IN (SELECT ended.id FROM refresh_families ended WHERE ended.expires_at <= :now)',
        { now: this.clock.now() },
      )
      .execute();
    return result.affected ?? 0;
  }

  private async stage(manager: EntityManager, userId: string, familyId: string, id: string, ignoreTakenId: boolean): Promise<IssuedRefreshToken> {
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.jwt.refreshTokenExpireDays * DAY_MS);
    const insert = manager
      .createQueryBuilder()
      .insert()
      .into(RefreshToken)
      .values({ id, tokenHash: hashToken(token), familyId, userId, expiresAt, consumedAt: null, revokedAt: null, createdAt: now });
    // ON CONFLICT DO NOTHING (PostgreSQL) / INSERT OR IGNORE (SQLite): a concurrent grace
    // successor waits for the first one's commit and then inserts nothing.
    await (ignoreTakenId ? insert.orIgnore() : insert).execute();
    return { token, familyId, expiresAt };
  }
}

/** A UUID-shaped id derived from the consumed row's id (SHA-256, version nibble 8: RFC 9562 §5.8). */
function graceSuccessorId(consumedId: string): string {
  const hex = createHash('sha256').update(`svc:grace:${consumedId}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import { hashToken } from '../crypto/opaque-token.js';
import { PasskeyUsedChallenge } from './passkey-used-challenge.entity.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';

/** What a used challenge answered: a passkey ceremony's challenge, or a two-step login's challenge id. */
export type ChallengeKind = 'passkey' | 'mfa';

/**
 * The challenges passkey ceremonies and two-step logins have used (`passkey_used_challenges`, a
 * name kept from its first use: docs/decisions/0002-schema.md), in the database every instance shares, so that a
 * challenge is accepted once however many instances serve it (WebAuthn L2 §13.4.3; RFC 6238 §5.2
 * for a second factor's challenge). A row is the SHA-256 of the challenge, kept until it expires.
 */
@Injectable()
export class UsedChallenges {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records `challenge` as used until `expiresAt`; false when it was used already (a replay). One
   * INSERT on the challenge's hash, committed at once, before the response is verified: of two
   * concurrent ceremonies with one challenge, the primary key lets exactly one through, and a
   * challenge stays spent whatever the verification says.
   */
  async consume(kind: ChallengeKind, challenge: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.unitOfWork.autocommit((manager) => this.spend(manager, kind, challenge, expiresAt));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether `challenge` was used already, as the caller's transaction sees it. */
  isUsed(manager: EntityManager, kind: ChallengeKind, challenge: string): Promise<boolean> {
    return manager.existsBy(PasskeyUsedChallenge, { challengeHash: keyOf(kind, challenge) });
  }

  /**
   * Records `challenge` as used in the caller's transaction, so it is spent exactly when what it
   * proved is committed. A challenge used already throws the unique violation (`isUniqueViolation`),
   * which rolls the whole transaction back: of two concurrent uses, one commits.
   */
  async spend(manager: EntityManager, kind: ChallengeKind, challenge: string, expiresAt: Date): Promise<void> {
    await manager.insert(PasskeyUsedChallenge, { challengeHash: keyOf(kind, challenge), expiresAt });
  }

  /** Deletes the rows of challenges that have expired (their cookies are refused anyway); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager.createQueryBuilder().delete().from(PasskeyUsedChallenge).where('expires_at <= :now', { now: this.clock.now() }).execute();
    return result.affected ?? 0;
  }
}

/** The row's key: a passkey challenge's SHA-256 as it always was; any other kind's under its own label, so no two kinds share a row. */
function keyOf(kind: ChallengeKind, challenge: string): string {
  return hashToken(kind === 'passkey' ? challenge : `svc ${kind} challenge ${challenge}`);
}

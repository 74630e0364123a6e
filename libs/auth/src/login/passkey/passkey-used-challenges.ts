import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import { hashToken } from '../../crypto/opaque-token.js';
import { PasskeyUsedChallenge } from '../../entities/passkey-used-challenge.entity.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { isUniqueViolation } from '../../persistence/unique-violation.js';

/**
 * The challenges registrations and logins have used (`passkey_used_challenges`), in the database
 * every instance shares, so that a challenge is accepted once however many instances serve the
 * ceremonies (WebAuthn L2 §13.4.3: a challenge is used once).
 */
@Injectable()
export class PasskeyUsedChallenges {
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
  async consume(challenge: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.unitOfWork.autocommit((manager) => manager.insert(PasskeyUsedChallenge, { challengeHash: hashToken(challenge), expiresAt }));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Deletes the rows of challenges that have expired (their cookies are refused anyway); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager.createQueryBuilder().delete().from(PasskeyUsedChallenge).where('expires_at <= :now', { now: this.clock.now() }).execute();
    return result.affected ?? 0;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import { hashToken } from '../crypto/opaque-token.js';
import { OAuthUsedState } from './oauth-used-state.entity.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';

/**
 * The states callbacks have used (`oauth_used_states`), in the database every instance shares, so
 * that a state is accepted once however many instances serve the callbacks (docs/decisions/0018-oauth-logins.md).
 */
@Injectable()
export class OAuthUsedStates {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records `state` as used until `expiresAt`; false when a callback used it already (a replay).
   * One INSERT on the state's hash, committed at once, before the code exchange: of two concurrent
   * callbacks with one state, the primary key lets exactly one insert through (on PostgreSQL the
   * second waits for the first to commit, then fails). Not part of the login's transaction, which
   * comes after the provider's answers: no connection is held while the provider is asked, and a
   * state stays used whatever happens after it was accepted (its cookie is cleared in any case).
   */
  async consume(state: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.unitOfWork.autocommit((manager) => manager.insert(OAuthUsedState, { stateHash: hashToken(state), expiresAt }));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Deletes the rows of states that have expired (no callback can present them any more); the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager.createQueryBuilder().delete().from(OAuthUsedState).where('expires_at <= :now', { now: this.clock.now() }).execute();
    return result.affected ?? 0;
  }
}

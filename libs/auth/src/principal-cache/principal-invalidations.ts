import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SVC_LOGGER } from '../config/auth.constants.js';
import { describeError } from '../errors/describe-error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { UserChanges } from '../users/user-changes.js';
import { encodeInvalidation, type Invalidation } from './invalidation-message.js';
import type { InvalidationTransport } from './invalidation-transport.js';
import { INVALIDATION_TRANSPORT, PRINCIPAL_CACHE } from './principal-cache.tokens.js';
import type { PrincipalCache } from './principal-cache.js';

/**
 * What every revocation, and every change of a user row the library makes, calls in its
 * transaction (docs/guides/principal-cache.md): the cached principals it makes wrong go, on this
 * instance once the transaction commits, on the others through the transport. Does nothing when
 * the cache is off.
 */
@Injectable()
export class PrincipalInvalidations implements UserChanges {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache<unknown>,
    @Inject(INVALIDATION_TRANSPORT) private readonly transport: InvalidationTransport | null,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Every credential of the user, or the user row itself (its body, its password, whether it is active). */
  userChanged(manager: EntityManager, userId: string): Promise<void> {
    return this.publish(manager, { userId });
  }

  /** One refresh family (the jwt credential's cache key). */
  familyRevoked(manager: EntityManager, familyId: string): Promise<void> {
    return this.publish(manager, { key: familyId });
  }

  private async publish(manager: EntityManager, invalidation: Invalidation): Promise<void> {
    const transport = this.transport;
    if (transport === null) return;
    const message = encodeInvalidation(invalidation);
    // NOTIFY travels with the transaction: a failure fails the revocation, nothing half-done.
    if (transport.transactional) await transport.publish(manager, message);
    await this.unitOfWork.afterCommit(manager, async () => {
      this.cache.invalidate(invalidation);
      if (transport.transactional) return;
      try {
        // Before the revocation's answer: when the client hears of it, the other instances have been told.
        await transport.publish(manager, message);
      } catch (error) {
        // The revocation is committed; an instance that misses this message serves the principal until its TTL at most.
        this.logger.error(`principal cache: invalidation not published: ${describeError(error)}`);
      }
    });
  }
}

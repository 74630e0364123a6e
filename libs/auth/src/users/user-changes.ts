import type { EntityManager } from 'typeorm';

/**
 * What the user store tells, in its transaction, after it changes a user row (its body, its
 * password, whether it is active). Stated here so that users/ imports no feature: the principal
 * cache's providers bind it to PrincipalInvalidations (useExisting, the same instance).
 */
export abstract class UserChanges {
  abstract userChanged(manager: EntityManager, userId: string): Promise<void>;
}

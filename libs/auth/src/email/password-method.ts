import type { EntityManager } from 'typeorm';

/**
 * What a change of email asks of the password method, stated here so that email/ does not import
 * password/: password.parts binds these to its PasswordHasher and ResetTokenStore (useExisting).
 */
export abstract class PasswordCheck {
  /** Constant-time comparison; a null hash still costs one comparison. */
  abstract verify(password: string, hash: string | null): Promise<boolean>;
}

export abstract class UnusedResetLinks {
  /** Voids the user's reset links not used yet, in the caller's transaction. */
  abstract discardUnusedOfUser(manager: EntityManager, userId: string): Promise<void>;
}

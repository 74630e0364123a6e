import type { EntityManager } from 'typeorm';

/**
 * The strategy's way to end every credential of a user (password reset, "log out everywhere"):
 * session rows for the session strategy, refresh families for jwt. Runs in the caller's
 * transaction.
 */
export interface CredentialRevoker {
  revokeAllOfUser(manager: EntityManager, userId: string): Promise<void>;
}

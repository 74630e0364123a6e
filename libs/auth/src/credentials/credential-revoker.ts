import type { EntityManager } from 'typeorm';
import type { Principal } from './credential-resolver.js';

/**
 * The credential's way to end credentials of a user (password reset, "log out everywhere", a
 * password change): session rows for the session credential, refresh families for jwt. Runs in
 * the caller's transaction.
 */
export interface CredentialRevoker {
  revokeAllOfUser(manager: EntityManager, userId: string): Promise<void>;
  /** Every credential of the user but the one the request presented (a password change keeps its own). */
  revokeOthersOfUser(manager: EntityManager, userId: string, kept: Principal): Promise<void>;
  /**
   * Every credential of the user but the one `keptId` names (a session id, or a refresh family id),
   * or all of them when it is null: a confirmed change of email keeps the credential that asked for it.
   */
  revokeAllOfUserExcept(manager: EntityManager, userId: string, keptId: string | null): Promise<void>;
}

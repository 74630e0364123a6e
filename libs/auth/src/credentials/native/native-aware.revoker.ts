import type { EntityManager } from 'typeorm';
import type { CredentialRevoker } from '../credential-revoker.js';
import type { Principal } from '../credential-resolver.js';

/**
 * The session module's revoker with native clients on: a password reset, a password change or a
 * change of email ends the user's native refresh families as well as their sessions (ASVS 5.0
 * V7.4.3). Session ids and family ids are distinct UUIDs, so a kept id keeps only its own credential.
 */
export class NativeAwareRevoker implements CredentialRevoker {
  constructor(
    private readonly sessions: CredentialRevoker,
    private readonly families: CredentialRevoker,
  ) {}

  async revokeAllOfUser(manager: EntityManager, userId: string): Promise<void> {
    await this.sessions.revokeAllOfUser(manager, userId);
    await this.families.revokeAllOfUser(manager, userId);
  }

  async revokeOthersOfUser(manager: EntityManager, userId: string, kept: Principal): Promise<void> {
    await this.sessions.revokeOthersOfUser(manager, userId, kept);
    await this.families.revokeOthersOfUser(manager, userId, kept);
  }

  async revokeAllOfUserExcept(manager: EntityManager, userId: string, keptId: string | null): Promise<void> {
    await this.sessions.revokeAllOfUserExcept(manager, userId, keptId);
    await this.families.revokeAllOfUserExcept(manager, userId, keptId);
  }
}

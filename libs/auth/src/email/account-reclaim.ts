import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, IsNull, Not } from 'typeorm';
import { CREDENTIAL_REVOKER } from '../credentials/credential.tokens.js';
import type { CredentialRevoker } from '../credentials/credential-revoker.js';
import { MfaRecoveryCode } from '../entities/mfa-recovery-code.entity.js';
import { MfaTotp } from '../entities/mfa-totp.entity.js';
import { OAuthAccount } from '../entities/oauth-account.entity.js';
import { Passkey } from '../entities/passkey.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { voidPendingEmailChanges } from '../users/pending-email-changes.js';
import { UserStore } from '../users/user-store.js';

/** What a reclaim removed: linked identities, passkeys, and `totp` 1 when an enabled authenticator app went. */
export interface ReclaimedWaysIn {
  identities: number;
  passkeys: number;
  totp: number;
}

/**
 * The first proof of a user's mailbox reclaims the account (docs/decisions/0022-account-pre-hijacking.md): the
 * address was never proven before, so whoever signed up with it may not be its owner, and nothing
 * they did may outlive the owner's proof. Runs in the proof's transaction, under the user's row lock.
 */
@Injectable()
export class AccountReclaim {
  constructor(
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly users: UserStore,
  ) {}

  /**
   * Marks the email verified at `at`; if it was not, ends every credential of the user but
   * `keptCredentialId` (the proving request's own, a session or refresh family id), voids every
   * pending change of email and removes every linked identity, passkey and authenticator secret
   * (with its recovery codes). Null when the email was verified already: a later proof changes nothing.
   */
  async proveMailbox(manager: EntityManager, user: SvcUser, at: Date, keptCredentialId: string | null): Promise<{ user: SvcUser; removed: ReclaimedWaysIn } | null> {
    if (!(await this.users.markEmailVerified(manager, user.id, at))) return null;
    // Sudhodanan & Paverd 2022 (pre-hijacking, "trojan identifier"); OWASP ASVS 5.0 V6: the mailbox owner's first proof ends whatever was added before it.
    await this.revoker.revokeAllOfUserExcept(manager, user.id, keptCredentialId);
    await voidPendingEmailChanges(manager, user.id);
    const identities = await this.removeAll(manager, OAuthAccount, user.id);
    const passkeys = await this.removeAll(manager, Passkey, user.id);
    const totp = (await manager.delete(MfaTotp, { userId: user.id, enabledAt: Not(IsNull()) })).affected ? 1 : 0;
    // A pending setup too: its secret was shown to whoever asked for it.
    await manager.delete(MfaTotp, { userId: user.id });
    await manager.delete(MfaRecoveryCode, { userId: user.id });
    if (user.mfaTotpEnabled) await this.users.setMfaTotpEnabled(manager, user.id, false);
    const reclaimed = await this.users.findById(manager, user.id);
    // The roles the application gives a proven address (authorization.assignRoles), now that it is proven.
    if (reclaimed) await this.users.grantAssignedRoles(manager, reclaimed);
    return { user: reclaimed!, removed: { identities, passkeys, totp } };
  }

  private async removeAll(manager: EntityManager, entity: typeof OAuthAccount | typeof Passkey, userId: string): Promise<number> {
    return (await manager.delete(entity, { userId })).affected ?? 0;
  }
}

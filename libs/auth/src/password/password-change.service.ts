import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import { CREDENTIAL_REVOKER } from '../credentials/credential.tokens.js';
import type { Clock } from '../config/clock.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { ChangePasswordPayload } from '../hooks/auth-hooks.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { AuditLog } from '../audit-log/audit-log.js';
import type { Principal } from '../credentials/credential-resolver.js';
import type { CredentialRevoker } from '../credentials/credential-revoker.js';
import { voidPendingEmailChanges } from '../users/pending-email-changes.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { UserStore } from '../users/user-store.js';
import { PasswordHasher } from './password-hasher.js';
import { ResetTokenStore } from './reset-token-store.js';

/** The stored hash is no longer the one the current password was checked against. */
const HASH_CHANGED = Symbol('hash changed');

/**
 * A signed-in user sets a new password (OWASP Authentication Cheat Sheet, "Change password"):
 * the current one is required, and every other session or refresh family of the user ends with
 * the change, in one transaction, with every pending change of email; the credential that made the request stays.
 */
@Injectable()
export class PasswordChange {
  constructor(
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly tokens: ResetTokenStore,
    private readonly hasher: PasswordHasher,
    private readonly events: AuthEventPublisher,
    private readonly notices: SecurityNotices,
    private readonly audit: AuditLog,
  ) {}

  async changePassword(principal: Principal, payload: ChangePasswordPayload, request: Request): Promise<void> {
    const { user } = principal;
    const currentPassword = payload.current_password.reveal();
    // bcrypt outside the transaction, as at login; a user without a password has none to give.
    await this.verifyCurrent(currentPassword, user.passwordHash);
    const passwordHash = await this.hasher.hash(payload.new_password.reveal());
    let changed = await this.replace(principal, user.passwordHash!, passwordHash, request);
    if (changed === HASH_CHANGED) {
      // As at login (docs/decisions/0009-login-and-concurrent-changes.md): a login's silent upgrade changes the
      // hash but not the password, so the current password is checked once more against the new hash.
      const reread = await this.unitOfWork.autocommit((manager) => this.users.findById(manager, user.id));
      await this.verifyCurrent(currentPassword, reread?.passwordHash ?? null);
      changed = await this.replace(principal, reread!.passwordHash!, passwordHash, request);
    }
    if (changed === HASH_CHANGED) throw new AuthError('CURRENT_PASSWORD_INVALID');
    this.events.publishAfterResponse(request, AuthEvent.PasswordChanged, { userId: user.id, at: this.clock.now() });
    this.notices.notify(request, user, 'password_changed');
  }

  private async verifyCurrent(password: string, hash: string | null): Promise<void> {
    const matches = await this.hasher.verify(password, hash);
    if (!matches || hash === null) throw new AuthError('CURRENT_PASSWORD_INVALID');
  }

  /**
   * In one transaction, under the user's row lock: the new hash, unused reset tokens discarded, every
   * other credential ended; only if the stored hash is still the one the current password matched.
   */
  private replace(principal: Principal, verifiedHash: string, passwordHash: string, request: Request): Promise<'changed' | typeof HASH_CHANGED> {
    const userId = principal.user.id;
    return this.unitOfWork.transaction(async (manager) => {
      const current = await this.users.lockById(manager, userId);
      // A user deactivated meanwhile is signed out, as the guard would say at the next request.
      if (!current?.isActive) throw new AuthError('UNAUTHENTICATED');
      if (current.passwordHash === null || !constantTimeEqual(current.passwordHash, verifiedHash)) return HASH_CHANGED;
      await this.users.replacePasswordHash(manager, userId, verifiedHash, passwordHash);
      await this.tokens.discardUnusedOfUser(manager, userId);
      // OWASP ASVS 5.0 V6: recovery spends a change of email asked for before it.
      await voidPendingEmailChanges(manager, userId);
      await this.revoker.revokeOthersOfUser(manager, userId, principal);
      await this.audit.record(manager, { action: 'password_changed', userId, request });
      return 'changed';
    });
  }
}

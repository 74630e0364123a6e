import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AUTH_CLOCK, CREDENTIAL_REVOKER } from '../auth.constants.js';
import type { Clock } from '../clock.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import type { ChangePasswordPayload } from '../hooks/auth-hooks.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { Principal } from '../strategies/credential/credential-resolver.js';
import type { CredentialRevoker } from '../strategies/credential/credential-revoker.js';
import { UserStore } from '../users/user-store.js';
import { PasswordHasher } from './password-hasher.js';
import { ResetTokenStore } from './reset-token-store.js';

/**
 * A signed-in user sets a new password (OWASP Authentication Cheat Sheet, "Change password"):
 * the current one is required, and every other session or refresh family of the user ends with
 * the change, in one transaction; the credential that made the request stays.
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
  ) {}

  async changePassword(principal: Principal, payload: ChangePasswordPayload, request: Request): Promise<void> {
    const { user } = principal;
    const verifiedHash = user.passwordHash;
    // bcrypt outside the transaction, as at login; a user without a password has none to give.
    const matches = await this.hasher.verify(payload.current_password.reveal(), verifiedHash);
    if (!matches || verifiedHash === null) throw new AuthError('CURRENT_PASSWORD_INVALID');
    const passwordHash = await this.hasher.hash(payload.new_password.reveal());
    await this.unitOfWork.transaction(async (manager) => {
      // As at login: the hash checked must still be the stored one (a reset may have committed meanwhile).
      const current = await this.users.lockById(manager, user.id);
      if (!current?.isActive || current.passwordHash === null || !constantTimeEqual(current.passwordHash, verifiedHash)) {
        throw new AuthError('CURRENT_PASSWORD_INVALID');
      }
      await this.users.replacePasswordHash(manager, user.id, verifiedHash, passwordHash);
      await this.tokens.discardUnusedOfUser(manager, user.id);
      await this.revoker.revokeOthersOfUser(manager, user.id, principal);
    });
    this.events.publishAfterResponse(request, AuthEvent.PasswordChanged, { userId: user.id, at: this.clock.now() });
  }
}

import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit-log/audit-log.js';
import { CREDENTIAL_REVOKER } from '../credentials/credential.tokens.js';
import type { CredentialRevoker } from '../credentials/credential-revoker.js';
import type { SvcUser } from '../entities/user.entity.js';
import { RoleStore } from '../authorization/role-store.js';
import { AuthError } from '../errors/auth.error.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { PasswordRecovery } from '../password/password-recovery.service.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';
import { noSuchUser } from './user-directory.js';

/** Who asked for a change, and why: an administrator's id (null for the application's own code) and an optional reason. */
export interface AdminAction {
  actorId?: string | null;
  reason?: string | null;
  /** The request it answers: its events go out after the response. Absent, they are delivered before the call resolves. */
  request?: Request;
}

/** The library's tables whose rows belong to a user (`user_id`): a deleted user leaves none behind (docs/decisions/0002-schema.md). */
const USER_TABLES = ['sessions', 'refresh_tokens', 'refresh_families', 'password_reset_tokens', 'email_tokens', 'oauth_accounts', 'mfa_totp', 'mfa_recovery_codes', 'passkeys', 'user_roles'];

/**
 * What an administrator (or the application's own code, through `AuthService`) does to a user
 * (docs/guides/administration.md): deactivate and activate, end every credential, send a reset,
 * delete. Each runs in one transaction under the user's row lock; deactivating and deleting never
 * leave the application without an active holder of `users:roles` (409 `LAST_ADMIN`).
 */
@Injectable()
export class UserAdministration {
  constructor(
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly serializer: UserSerializer,
    private readonly events: AuthEventPublisher,
    private readonly roles: RoleStore,
    private readonly moduleRef: ModuleRef,
    private readonly audit: AuditLog,
  ) {}

  /** Grants a role of the policy (400 `ROLE_UNKNOWN`); a role held already changes nothing. 404 for an unknown user. */
  async grantRole(userId: string, role: string, action: AdminAction = {}): Promise<boolean> {
    return this.unitOfWork.transaction((manager) => this.roles.grant(manager, userId, role, action.actorId ?? null, action.request));
  }

  /** Revokes a role the user holds (else 404); 409 `LAST_ADMIN` for the last active holder of `users:roles`. */
  async revokeRole(userId: string, role: string, action: AdminAction = {}): Promise<void> {
    await this.unitOfWork.transaction((manager) => this.roles.revoke(manager, userId, role, action));
  }

  /**
   * `is_active` false and every credential of the user ended, refused at its next request on every
   * instance (the principal cache too); 404 for an unknown user. Already inactive: nothing changes
   * and no event. Resolves to whether this deactivated the user.
   */
  async deactivate(userId: string, action: AdminAction = {}): Promise<boolean> {
    const changed = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, userId);
      if (!user.isActive) return null;
      // The user keeps no role that counts: an inactive holder manages nothing.
      await this.roles.assertNotLastAdmin(manager, user, []);
      await this.users.deactivate(manager, user.id);
      // OWASP ASVS 5.0 V7.4.2: a deactivated account's sessions end, so activating it later brings none back.
      await this.revoker.revokeAllOfUser(manager, user.id);
      await this.audit.record(manager, { action: 'user_deactivated', userId: user.id, actorId: action.actorId, request: action.request, details: action.reason ? { reason: action.reason } : undefined });
      return this.users.loadRoles(manager, user);
    });
    if (changed) await this.events.publish(action.request, AuthEvent.UserDeactivated, { user: this.serializer.serialize(changed), actorId: action.actorId ?? null, reason: action.reason ?? null });
    return changed !== null;
  }

  /** `is_active` true again (the user signs in anew: no credential of before comes back); 404 for an unknown user. */
  async activate(userId: string, action: AdminAction = {}): Promise<boolean> {
    const changed = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, userId);
      if (!(await this.users.activate(manager, user.id))) return null;
      await this.audit.record(manager, { action: 'user_activated', userId: user.id, actorId: action.actorId, request: action.request });
      return this.users.loadRoles(manager, user);
    });
    if (changed) await this.events.publish(action.request, AuthEvent.UserActivated, { user: this.serializer.serialize(changed), actorId: action.actorId ?? null });
    return changed !== null;
  }

  /** Every credential of the user ends (sessions deleted, refresh families revoked); 404 for an unknown user. */
  async revokeSessions(userId: string): Promise<void> {
    await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, userId);
      await this.revoker.revokeAllOfUser(manager, user.id);
    });
  }

  /**
   * The reset message forgot-password sends (an administrator never sets a password); 404 for an
   * unknown user, and for any user when the module has no password login. False for an inactive user, who gets none.
   */
  async sendPasswordReset(userId: string, action: AdminAction = {}): Promise<boolean> {
    const recovery = this.optional(PasswordRecovery);
    if (!recovery) throw new AuthError('NOT_FOUND', { message: 'No password login here: there is no password to reset' });
    const exists = await this.unitOfWork.autocommit((manager) => this.users.findById(manager, userId));
    if (!exists) throw noSuchUser();
    return recovery.sendResetTo(exists.id, action.request);
  }

  /** The user and every row of the library's that belongs to it, deleted in one transaction; 404 for an unknown user. */
  async delete(userId: string, action: AdminAction = {}): Promise<void> {
    const deleted = await this.unitOfWork.transaction(async (manager) => {
      const user = await this.lockedUser(manager, userId);
      await this.roles.assertNotLastAdmin(manager, user, []);
      await this.revoker.revokeAllOfUser(manager, user.id);
      for (const metadata of manager.connection.entityMetadatas) {
        if (USER_TABLES.includes(metadata.tableName) && metadata.findColumnWithDatabaseName('user_id')) {
          await manager.createQueryBuilder().delete().from(metadata.target).where('user_id = :userId', { userId: user.id }).execute();
        }
      }
      await this.users.delete(manager, user.id);
      // The entry outlives the account: its id stays a plain value (docs/decisions/0029-activity-log.md). One's own deletion has no other actor.
      await this.audit.record(manager, { action: 'account_deleted', userId: user.id, actorId: action.actorId === user.id ? null : action.actorId, request: action.request });
      return user.id;
    });
    await this.events.publish(action.request, AuthEvent.UserDeleted, { userId: deleted, actorId: action.actorId ?? null });
  }

  /** The user's row, locked until the transaction ends, or 404. */
  private async lockedUser(manager: EntityManager, userId: string): Promise<SvcUser> {
    const user = await this.users.lockById(manager, userId);
    if (!user) throw noSuchUser();
    return user;
  }

  private optional<T>(type: Type<T>): T | undefined {
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return undefined;
    }
  }
}

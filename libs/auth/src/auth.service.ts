import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AuditLog } from './audit-log/audit-log.js';
import { CREDENTIAL_REVOKER } from './credentials/credential.tokens.js';
import type { SvcUser } from './entities/user.entity.js';
import { OAuthUsedStates } from './oauth/oauth-used-states.js';
import { UsedChallenges } from './login/used-challenges.js';
import { EmailTokenStore } from './email/email-token-store.js';
import { ResetTokenStore } from './password/reset-token-store.js';
import { UnitOfWork } from './persistence/unit-of-work.js';
import { RateLimitStorage } from './rate-limit/rate-limit.storage.js';
import { TypeOrmRateLimitStorage } from './rate-limit/typeorm/typeorm-rate-limit.storage.js';
import type { CredentialRevoker } from './credentials/credential-revoker.js';
import { PrincipalInvalidations } from './principal-cache/principal-invalidations.js';
import { RefreshFamilyStore } from './credentials/jwt/refresh-family-store.js';
import { RefreshTokenStore } from './credentials/jwt/refresh-token-store.js';
import { SessionStore } from './credentials/session/session-store.js';
import type { UserBody } from './users/user-body.js';
import { UserSerializer } from './users/user-serializer.service.js';
import { UserStore } from './users/user-store.js';
import { RoleStore } from './authorization/role-store.js';
import type { AdminUserDetails, AdminUserPage, UserListQuery } from './admin/admin-bodies.js';
import { UserAdministration } from './admin/user-administration.js';
import { UserDirectory } from './admin/user-directory.js';
import { AuthError } from './errors/auth.error.js';

/** How many rows `purgeExpired` deleted, per table. */
export interface PurgeResult {
  /** Sessions past their expiry or their absolute lifetime. */
  sessions: number;
  refreshTokens: number;
  /** Refresh families past their absolute end, or with no token left. */
  refreshFamilies: number;
  resetTokens: number;
  /** Used or expired email verification and change tokens. */
  emailTokens: number;
  /** Used OAuth states whose state token has expired. */
  oauthUsedStates: number;
  /** Used passkey and two-step login challenges that have expired. */
  passkeyUsedChallenges: number;
  /** Counters of the database rate limiter whose window has ended. */
  rateLimitWindows: number;
  /** Activity log entries older than `audit.retentionDays`; present only with the `audit` section. */
  auditEvents?: number;
}

/**
 * What an application calls on the library from its own code. Typed by the application's user
 * entity: `constructor(private readonly auth: AuthService<AppUser>)`.
 */
@Injectable()
export class AuthService<U extends SvcUser = SvcUser> {
  constructor(
    @Inject(RateLimitStorage) private readonly rateLimitStorage: RateLimitStorage,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly serializer: UserSerializer,
    @Inject(CREDENTIAL_REVOKER) private readonly revoker: CredentialRevoker,
    private readonly moduleRef: ModuleRef,
    private readonly invalidations: PrincipalInvalidations,
    private readonly roles: RoleStore,
    private readonly directory: UserDirectory,
    private readonly administration: UserAdministration,
    private readonly audit: AuditLog,
  ) {}

  /** The user body of a row: id, email and the `@SvcReturned()` columns. */
  toUserBody(user: U): UserBody {
    return this.serializer.serialize(user);
  }

  findUserById(id: string): Promise<U | null> {
    return this.unitOfWork.autocommit((manager) => this.users.findById(manager, id) as Promise<U | null>);
  }

  /** Logs the user out everywhere, whatever the credential: every session row deleted, or every refresh family revoked (and with it its access tokens). */
  revokeAllCredentials(userId: string): Promise<void> {
    return this.unitOfWork.transaction((manager) => this.revoker.revokeAllOfUser(manager, userId));
  }

  /**
   * One page of users, newest first, as GET /admin/users answers (docs/guides/administration.md):
   * `query` a prefix of the email, `limit` 1..100 (default 20), `cursor` the previous page's
   * `nextCursor`. Needs the `admin` section (its cursors are signed with a key derived from the secret).
   */
  listUsers(query: UserListQuery = {}): Promise<AdminUserPage> {
    return this.directory.list(query);
  }

  /** The user's details, as GET /admin/users/{id} answers, or null. */
  userDetails(userId: string): Promise<AdminUserDetails | null> {
    return orNullWhenMissing(this.directory.details(userId));
  }

  /**
   * Deactivates the user: `isActive` false and every credential of theirs ended, refused from now on,
   * on every instance, cached or not (docs/guides/principal-cache.md); `svc.user.deactivated` with
   * `actorId` and `reason`. Resolves to false when the user was already inactive or does not exist;
   * rejects with `AuthError('LAST_ADMIN')` for the last active holder of `users:roles`.
   */
  async deactivateUser(userId: string, options: { actorId?: string; reason?: string } = {}): Promise<boolean> {
    return (await orNullWhenMissing(this.administration.deactivate(userId, options))) ?? false;
  }

  /** Activates the user again (`svc.user.activated`); false when the user was active already or does not exist. */
  async activateUser(userId: string, options: { actorId?: string } = {}): Promise<boolean> {
    return (await orNullWhenMissing(this.administration.activate(userId, options))) ?? false;
  }

  /**
   * Sends the user the reset message forgot-password sends (`svc.password.reset_requested`, whose
   * observers have run when it resolves); false for an inactive or unknown user, who gets none.
   */
  async sendPasswordReset(userId: string): Promise<boolean> {
    return (await orNullWhenMissing(this.administration.sendPasswordReset(userId))) ?? false;
  }

  /**
   * Deletes the user and every row of the library's that belongs to it, in one transaction
   * (`svc.user.deleted`); false when there is no such user; rejects with `AuthError('LAST_ADMIN')`
   * for the last active holder of `users:roles`.
   */
  async deleteUser(userId: string, options: { actorId?: string } = {}): Promise<boolean> {
    return (await orNullWhenMissing(this.administration.delete(userId, options).then(() => true))) ?? false;
  }

  /**
   * Tells every instance that the application changed or deleted the user's row itself (a column of
   * the user body, `isActive`, the row gone): their cached principals go (docs/guides/principal-cache.md).
   * Needless without the cache; changes made through this service do it on their own.
   */
  invalidateUser(userId: string): Promise<void> {
    return this.unitOfWork.transaction((manager) => this.invalidations.userChanged(manager, userId));
  }

  /**
   * Grants the user a role of the `authorization` policy (docs/guides/roles-and-permissions.md): from
   * a seed script, say. It takes effect at the user's next request, on every instance. Resolves to
   * false when the user held it already. 400 `ROLE_UNKNOWN` for a role the policy does not define,
   * 404 `NOT_FOUND` for no such user (as `AuthError`s). `actorId`: who granted it (`granted_by`).
   */
  grantRole(userId: string, role: string, options: { actorId?: string } = {}): Promise<boolean> {
    return this.unitOfWork.transaction((manager) => this.roles.grant(manager, userId, role, options.actorId ?? null));
  }

  /**
   * Revokes a role the user holds, at the user's next request on every instance. 404 `NOT_FOUND`
   * when the user does not hold it (or does not exist); 409 `LAST_ADMIN` when no active user would be
   * left holding `users:roles`.
   */
  revokeRole(userId: string, role: string): Promise<void> {
    return this.unitOfWork.transaction((manager) => this.roles.revoke(manager, userId, role));
  }

  /** The user's roles, sorted; 404 `NOT_FOUND` for no such user. */
  rolesOf(userId: string): Promise<string[]> {
    return this.unitOfWork.autocommit((manager) => this.roles.list(manager, userId));
  }

  /**
   * Deletes everything that can no longer matter, in one transaction: sessions past their expiry or
   * absolute lifetime, or refresh rows that can no longer be presented (a revoked row stays until its
   * whole family has expired, so that reuse is still recognised) and the families past their absolute
   * end or with no token left; used and expired password-reset and email tokens; used OAuth states and passkey
   * challenges past their expiry; then the ended windows of the database rate limiter. Call it from a scheduler, or let `purge: { cron }` do it.
   */
  async purgeExpired(): Promise<PurgeResult> {
    const sessions = this.optional(SessionStore);
    const refreshTokens = this.optional(RefreshTokenStore);
    const refreshFamilies = this.optional(RefreshFamilyStore);
    const resetTokens = this.optional(ResetTokenStore);
    const emailTokens = this.optional(EmailTokenStore);
    const usedStates = this.optional(OAuthUsedStates);
    const usedChallenges = this.optional(UsedChallenges);
    const result = await this.unitOfWork.transaction(async (manager) => ({
      sessions: sessions ? await sessions.purgeExpired(manager) : 0,
      refreshTokens: refreshTokens ? await refreshTokens.purgeExpired(manager) : 0,
      // After the tokens: a family goes once none of its tokens is left.
      refreshFamilies: refreshFamilies ? await refreshFamilies.purgeExpired(manager) : 0,
      resetTokens: resetTokens ? await resetTokens.purgeExpired(manager) : 0,
      emailTokens: emailTokens ? await emailTokens.purgeExpired(manager) : 0,
      oauthUsedStates: usedStates ? await usedStates.purgeExpired(manager) : 0,
      passkeyUsedChallenges: usedChallenges ? await usedChallenges.purgeExpired(manager) : 0,
      auditEvents: await this.audit.purgeExpired(manager),
    }));
    const rateLimitWindows = this.rateLimitStorage instanceof TypeOrmRateLimitStorage ? await this.rateLimitStorage.deleteEndedWindows() : 0;
    const { auditEvents, ...purged } = result;
    return { ...purged, rateLimitWindows, ...(auditEvents === undefined ? {} : { auditEvents }) };
  }

  private optional<T>(type: Type<T>): T | undefined {
    try {
      return this.moduleRef.get(type);
    } catch {
      return undefined;
    }
  }
}

/** What the administration answers 404 for is null here: a script asks about ids, it does not route them. */
async function orNullWhenMissing<T>(operation: Promise<T>): Promise<T | null> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof AuthError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

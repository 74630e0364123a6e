import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type EntityManager, In } from 'typeorm';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { CREDENTIAL_DEVICES } from '../credentials/credential.tokens.js';
import type { CredentialDevices } from '../credentials/credential-devices.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UserRole } from '../entities/user-role.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { LinkedAccounts } from '../oauth/linked-accounts.service.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import { hasControlOrFormatCharacter, MAX_EMAIL_LENGTH, normalizeEmail } from '../users/email.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { withRoles } from '../users/user-roles.js';
import { UserStore } from '../users/user-store.js';
import { WaysIn } from '../users/ways-in.js';
import type { AdminLoginMethods, AdminUserDetails, AdminUserPage, AdminUserSummary, UserListQuery } from './admin-bodies.js';
import { type UserListPosition, UserListCursor } from './user-list-cursor.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Past any email (RFC 5321): on SQLite, the upper end of a prefix's range under the BINARY collation. */
const AFTER_EVERY_CHARACTER = '\u{10FFFF}';

/**
 * Finds users for the administration (docs/guides/administration.md): the list, newest first, by
 * keyset paging on `(created_at, id)` (an index range from the cursor, never an OFFSET), optionally
 * narrowed to the emails that start with a prefix; and one user's details.
 */
@Injectable()
export class UserDirectory {
  private readonly cursor?: UserListCursor;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(CREDENTIAL_DEVICES) private readonly devices: CredentialDevices,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserStore,
    private readonly waysIn: WaysIn,
    private readonly serializer: UserSerializer,
    private readonly moduleRef: ModuleRef,
  ) {
    if (config.admin) this.cursor = new UserListCursor(config.admin.cursorKey);
  }

  /** One page of users, newest first; 400 `VALIDATION_FAILED` for a bad limit or query, or a cursor this list did not issue. */
  async list(request: UserListQuery): Promise<AdminUserPage> {
    const cursor = this.cursor;
    if (!cursor) throw new TypeError('svc: the user list needs the admin section (its cursors are signed with a key derived from the secret)');
    const query = prefixOf(request.query);
    const limit = limitOf(request.limit);
    const after = request.cursor === undefined ? undefined : cursor.read(request.cursor, query);
    const rows = await this.unitOfWork.autocommit(async (manager) => this.withRolesOfEach(manager, await this.page(manager, query, after, limit + 1)));
    const users = rows.slice(0, limit);
    const last = rows.length > limit ? users[users.length - 1] : undefined;
    return {
      users: users.map(({ user }) => this.summaryOf(user)),
      nextCursor: last ? cursor.issue({ createdAt: last.createdAt, id: last.user.id }, query) : null,
    };
  }

  /** The user's details, or 404 `NOT_FOUND`. */
  async details(userId: string): Promise<AdminUserDetails> {
    const found = await this.unitOfWork.autocommit(async (manager) => {
      const row = await this.users.findById(manager, userId);
      return row && { user: await this.users.loadRoles(manager, row), sessions: (await this.devices.listOfUser(manager, row.id)).length };
    });
    if (!found) throw noSuchUser();
    const { user, sessions } = found;
    const loginMethods = await this.loginMethodsOf(user);
    return { ...this.summaryOf(user), loginMethods, mfa: { totp: user.mfaTotpEnabled === true }, sessions };
  }

  summaryOf(user: SvcUser): AdminUserSummary {
    return { ...this.serializer.serialize(user), isActive: user.isActive, createdAt: user.createdAt.toISOString() };
  }

  /**
   * `limit` rows after `after`, with each row's `created_at` as the database's own text (a cursor
   * carries it exactly, microseconds included, rather than as a JavaScript date). The prefix is a
   * range of the email index: LIKE on PostgreSQL (its `text_pattern_ops` index), a BINARY range on SQLite.
   */
  private async page(manager: EntityManager, query: string, after: UserListPosition | undefined, limit: number): Promise<{ user: SvcUser; createdAt: string }[]> {
    const postgres = manager.connection.options.type === 'postgres';
    const builder = manager
      .createQueryBuilder(this.config.userEntity as Type<SvcUser>, 'u')
      .addSelect('CAST(u.created_at AS TEXT)', 'cursor_created_at')
      .orderBy('u.createdAt', 'DESC')
      .addOrderBy('u.id', 'DESC')
      .limit(limit);
    if (query !== '') {
      if (postgres) builder.andWhere(`u.email LIKE :pattern ESCAPE '\\'`, { pattern: `${query.replace(/[\\%_]/g, '\\$&')}%` });
      else builder.andWhere('u.email >= :low AND u.email < :high', { low: query, high: query + AFTER_EVERY_CHARACTER });
    }
    if (after) builder.andWhere('(u.created_at, u.id) < (:createdAt, :id)', { createdAt: after.createdAt, id: after.id });
    const { entities, raw } = await builder.getRawAndEntities<{ cursor_created_at: string }>();
    return entities.map((user, i) => ({ user, createdAt: String(raw[i].cursor_created_at) }));
  }

  /** With `authorization`, each row carrying its roles (for the user body), in one statement for the page. */
  private async withRolesOfEach<R extends { user: SvcUser }>(manager: EntityManager, rows: R[]): Promise<R[]> {
    if (!this.config.authorization || rows.length === 0) return rows;
    const grants = await manager.find(UserRole, { select: { userId: true, role: true }, where: { userId: In(rows.map(({ user }) => user.id)) } });
    for (const { user } of rows) withRoles(user, grants.filter((grant) => grant.userId === user.id).map((grant) => grant.role));
    return rows;
  }

  /** As GET /accounts answers the user itself: its password, and its identities at the configured providers. */
  private async loginMethodsOf(user: SvcUser): Promise<AdminLoginMethods> {
    const linked = this.optional(LinkedAccounts);
    if (linked) return linked.list(user);
    return { password: this.waysIn.signsInWithPassword(user), identities: [] };
  }

  private optional<T>(type: Type<T>): T | undefined {
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return undefined;
    }
  }
}

/** 404's message for an unknown user id (docs/decisions/0004-errors.md). */
export function noSuchUser(): AuthError {
  return new AuthError('NOT_FOUND', { message: 'No such user' });
}

/** The query's prefix, normalised as emails are stored (docs/decisions/0006-validation.md); 400 for what no email holds. */
function prefixOf(query: unknown): string {
  if (query === undefined) return '';
  if (typeof query !== 'string' || query.length > MAX_EMAIL_LENGTH || !query.isWellFormed() || hasControlOrFormatCharacter(query)) {
    throw new AuthError('VALIDATION_FAILED', { message: [`query must be at most ${MAX_EMAIL_LENGTH} characters of an email, without control or format characters`] });
  }
  return normalizeEmail(query);
}

function limitOf(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new AuthError('VALIDATION_FAILED', { message: [`limit must be an integer from 1 to ${MAX_LIMIT}`] });
  }
  return limit;
}

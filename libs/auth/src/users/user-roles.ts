import type { DataSource } from 'typeorm';
import type { SvcUser } from '../entities/user.entity.js';
import { UserRole } from '../entities/user-role.entity.js';

/** Where a user row carries the roles loaded with it (a symbol: never a column, never serialised by accident). */
const ROLES = Symbol('svc:roles');
/** The column alias of the roles in the statements that resolve a credential. */
const ROLES_ALIAS = 'svc_roles';

/** The row, carrying `roles` (sorted) for the user body and the guards (docs/guides/roles-and-permissions.md). */
export function withRoles<U extends SvcUser>(user: U, roles: readonly string[]): U {
  (user as unknown as Record<symbol, readonly string[]>)[ROLES] = Object.freeze([...roles].sort());
  return user;
}

/** The roles loaded with the row, or undefined when none were. */
export function rolesOf(user: SvcUser): readonly string[] | undefined {
  return (user as unknown as Record<symbol, readonly string[] | undefined>)[ROLES];
}

/**
 * A select-list entry with the user's roles (PostgreSQL: an array; SQLite: comma-separated, a role
 * name holds no comma), for the one statement that resolves a credential: no second round trip per
 * request. The primary key `(user_id, role)` serves it.
 */
export function rolesColumn(dataSource: DataSource, userAlias: string): string {
  const { driver } = dataSource;
  const table = driver.escape(dataSource.getMetadata(UserRole).tableName);
  const owner = `r.user_id = ${driver.escape(userAlias)}.id`;
  // PostgreSQL: an array read by an index-only scan of the primary key (an aggregate costs a few times more per request).
  if (dataSource.options.type === 'postgres') return `ARRAY(SELECT r.role FROM ${table} r WHERE ${owner}) AS ${driver.escape(ROLES_ALIAS)}`;
  return `(SELECT group_concat(r.role, ',') FROM ${table} r WHERE ${owner}) AS ${driver.escape(ROLES_ALIAS)}`;
}

/** The roles of a row read with `rolesColumn`. */
export function rolesFromRow(row: Record<string, unknown>): string[] {
  const value = row[ROLES_ALIAS];
  if (Array.isArray(value)) return value as string[];
  return typeof value === 'string' && value !== '' ? value.split(',') : [];
}

import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type EntityManager, In } from 'typeorm';
import { AuditLog } from '../audit-log/audit-log.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { rolesGranting } from '../config/authorization-policy.js';
import type { Clock } from '../config/clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UserRole } from '../entities/user-role.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import { UserChanges } from '../users/user-changes.js';
import { UserStore } from '../users/user-store.js';

/** The permission that manages roles: someone active must always hold it (docs/guides/roles-and-permissions.md). */
const MANAGES_ROLES = 'users:roles';

/**
 * Rows of `user_roles`: grants, revocations and the list of a user's roles, each in the caller's
 * transaction. Every change tells the principal cache, on every instance, so that it takes effect
 * at the user's next request (docs/guides/principal-cache.md).
 */
@Injectable()
export class RoleStore {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly users: UserStore,
    private readonly changes: UserChanges,
    private readonly audit: AuditLog,
  ) {}

  /** The user's roles, sorted; 404 `NOT_FOUND` for no such user. */
  async list(manager: EntityManager, userId: string): Promise<string[]> {
    if (!(await this.users.findById(manager, userId))) throw noSuchUser();
    return this.rolesOf(manager, userId);
  }

  /**
   * Grants a role the policy defines (else 400 `ROLE_UNKNOWN`); resolves to false when the user held
   * it already (nothing changes). `actorId`: who granted it, recorded as `granted_by`.
   */
  async grant(manager: EntityManager, userId: string, role: string, actorId: string | null, request?: Request): Promise<boolean> {
    const policy = this.config.authorization;
    if (!policy || !Object.hasOwn(policy.roles, role)) throw new AuthError('ROLE_UNKNOWN', { message: 'The authorization policy defines no such role' });
    if (!(await this.users.lockById(manager, userId))) throw noSuchUser();
    if (await manager.existsBy(UserRole, { userId, role })) return false;
    try {
      await manager.insert(UserRole, { userId, role, grantedAt: this.clock.now(), grantedBy: actorId });
    } catch (error) {
      // A concurrent grant of the same role won: the user holds it, as asked.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    await this.changes.userChanged(manager, userId);
    await this.audit.record(manager, { action: 'role_granted', userId, actorId, request, details: { role } });
    return true;
  }

  /**
   * Revokes a role the user holds (else 404 `NOT_FOUND`). The last active holder of `users:roles`
   * keeps it: 409 `LAST_ADMIN`, so that someone can always manage roles (OWASP ASVS 5.0 V8.2).
   */
  async revoke(manager: EntityManager, userId: string, role: string, by: { actorId?: string | null; request?: Request } = {}): Promise<void> {
    const user = await this.users.lockById(manager, userId);
    if (!user) throw noSuchUser();
    const held = await this.rolesOf(manager, userId);
    if (!held.includes(role)) throw new AuthError('NOT_FOUND', { message: 'The user does not hold this role' });
    await this.assertNotLastAdmin(manager, user, held.filter((other) => other !== role));
    await manager.delete(UserRole, { userId, role });
    await this.changes.userChanged(manager, userId);
    await this.audit.record(manager, { action: 'role_revoked', userId, actorId: by.actorId ?? null, request: by.request, details: { role } });
  }

  /**
   * 409 `LAST_ADMIN` when `user`, keeping only `remaining` of its roles, would leave no active user
   * holding `users:roles`. The holders' rows are locked (PostgreSQL), so two admins revoking each
   * other at once cannot both succeed: the second sees the first's revocation.
   */
  async assertNotLastAdmin(manager: EntityManager, user: SvcUser, remaining: readonly string[]): Promise<void> {
    const policy = this.config.authorization;
    if (!policy || !user.isActive) return;
    const managing = rolesGranting(policy, MANAGES_ROLES);
    if (remaining.some((role) => managing.includes(role)) || managing.length === 0) return;
    const held = await this.rolesOf(manager, user.id);
    if (!held.some((role) => managing.includes(role))) return;
    if (!(await this.anotherActiveHolder(manager, user.id, managing))) throw new AuthError('LAST_ADMIN');
  }

  private async anotherActiveHolder(manager: EntityManager, userId: string, roles: string[]): Promise<boolean> {
    // In one order, so that two revocations lock the same rows in the same order (no deadlock).
    const query = manager.createQueryBuilder(UserRole, 'r').select('r.userId', 'userId').where({ role: In(roles) }).orderBy('r.userId').addOrderBy('r.role');
    const holders = (await (manager.connection.options.type === 'postgres' ? query.setLock('pessimistic_write') : query).getRawMany<{ userId: string }>()).map((row) => row.userId);
    const others = [...new Set(holders)].filter((holder) => holder !== userId);
    if (others.length === 0) return false;
    return manager.existsBy(this.config.userEntity, { id: In(others), isActive: true });
  }

  private async rolesOf(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = await manager.find(UserRole, { select: { role: true }, where: { userId } });
    return rows.map((row) => row.role).sort();
  }
}

function noSuchUser(): AuthError {
  return new AuthError('NOT_FOUND', { message: 'No such user' });
}

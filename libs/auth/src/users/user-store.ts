import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type DataSource, type EntityManager, IsNull } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import { AuthConfigError } from '../config/auth-config.error.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UserRole } from '../entities/user-role.entity.js';
import { AuthError } from '../errors/auth.error.js';
import { hydrate, parameter, selectList } from '../persistence/row-hydrator.js';
import { isUniqueViolation } from '../persistence/unique-violation.js';
import { isUuid } from '../persistence/uuid.js';
import { emailSkeleton } from './email-skeleton.js';
import { mixedScriptProblem } from './mixed-script.js';
import { UserChanges } from './user-changes.js';
import { withRoles } from './user-roles.js';

/** Reads and writes rows of the application's user entity. */
@Injectable()
export class UserStore {
  private byEmail?: string;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly invalidations: UserChanges,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {}

  findByEmail(manager: EntityManager, normalizedEmail: string): Promise<SvcUser | null> {
    return manager.findOneBy(this.config.userEntity, { email: normalizedEmail });
  }

  /** The user whose email is this one, or looks like it (the same UTS #39 skeleton), if any. */
  findByEmailOrLookalike(manager: EntityManager, normalizedEmail: string): Promise<SvcUser | null> {
    return manager.findOne(this.config.userEntity, { where: [{ email: normalizedEmail }, { emailSkeleton: emailSkeleton(normalizedEmail) }] });
  }

  /**
   * The user with this email, or null, at the same cost either way: one hand-written statement and
   * one entity built, from the row or from an empty one. forgot-password's work after its response
   * must not take longer for a known email than for an unknown one (OWASP Forgot Password Cheat
   * Sheet: consistent time), and TypeORM's own loader only builds an entity when a row exists.
   */
  async findByEmailEvenly(manager: EntityManager, normalizedEmail: string): Promise<SvcUser | null> {
    const rows: Record<string, unknown>[] = await manager.query(this.byEmailSql(manager.connection), [normalizedEmail]);
    const user = hydrate<SvcUser>(manager.connection, this.config.userEntity, 'u', rows[0] ?? {});
    return rows.length === 1 ? user : null;
  }

  /** The user's row locked as `lockById` locks it, without loading it (the same work for a row that does not exist). */
  async lockRow(manager: EntityManager, id: string): Promise<void> {
    if (manager.connection.options.type !== 'postgres') return;
    const users = manager.connection.driver.escape(manager.connection.getMetadata(this.config.userEntity).tableName);
    await manager.query(`SELECT 1 FROM ${users} WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  }

  findById(manager: EntityManager, id: string): Promise<SvcUser | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return manager.findOneBy(this.config.userEntity, { id });
  }

  /**
   * Stages a new user; a taken email, or one that looks like a taken one (UTS #39 skeleton), is
   * `EMAIL_ALREADY_REGISTERED`, also when two signups race (the unique indexes decide). With
   * `singleScript` (a signup), an address whose local part or a domain label mixes scripts is
   * then refused (UTS #39 §5): a look-alike of a registered address is told it is taken first.
   */
  async insert(manager: EntityManager, fields: { email: string; passwordHash: string | null } & Record<string, unknown>, rules: { singleScript?: boolean } = {}): Promise<SvcUser> {
    const skeleton = emailSkeleton(fields.email);
    if (await manager.existsBy(this.config.userEntity, [{ email: fields.email }, { emailSkeleton: skeleton }])) throw new AuthError('EMAIL_ALREADY_REGISTERED');
    const mixed = rules.singleScript ? mixedScriptProblem(fields.email) : null;
    if (mixed) throw new AuthError('VALIDATION_FAILED', { message: [`email: ${mixed}`] });
    const user = manager.create(this.config.userEntity, { ...fields, emailSkeleton: skeleton, id: randomUUID(), isActive: true } as Partial<SvcUser>);
    try {
      await manager.insert(this.config.userEntity, user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError('EMAIL_ALREADY_REGISTERED', { cause: error });
      throw error;
    }
    const inserted = (await manager.findOneBy(this.config.userEntity, { id: user.id }))!;
    return this.config.authorization ? this.grantRolesAtSignup(manager, inserted) : inserted;
  }

  /** With `authorization`, the row carrying the user's roles, read in the caller's transaction (a login's, say); without, the row as it is. */
  async loadRoles<U extends SvcUser>(manager: EntityManager, user: U): Promise<U> {
    if (!this.config.authorization) return user;
    const rows = await manager.find(UserRole, { select: { role: true }, where: { userId: user.id } });
    return withRoles(user, rows.map((row) => row.role));
  }

  /**
   * A new user's `authorization.defaultRoles` and the roles `assignRoles` names for it, in the
   * signup's transaction (docs/guides/roles-and-permissions.md), every way in alike.
   */
  private async grantRolesAtSignup(manager: EntityManager, user: SvcUser): Promise<SvcUser> {
    const roles = [...new Set([...this.config.authorization!.defaultRoles, ...this.assignedRoles(user)])].sort();
    await this.insertGrants(manager, user.id, roles);
    return withRoles(user, roles);
  }

  /**
   * The roles `authorization.assignRoles` names for the user and it does not hold yet, granted in the
   * caller's transaction (the first proof of its mailbox); its cached principals then go.
   */
  async grantAssignedRoles(manager: EntityManager, user: SvcUser): Promise<void> {
    const assigned = this.assignedRoles(user);
    if (assigned.length === 0) return;
    const held = new Set((await manager.find(UserRole, { select: { role: true }, where: { userId: user.id } })).map((row) => row.role));
    const missing = assigned.filter((role) => !held.has(role));
    if (missing.length === 0) return;
    await this.insertGrants(manager, user.id, missing);
    await this.invalidations.userChanged(manager, user.id);
  }

  /** Rows of `user_roles` granted now by no one (a default, or the application's rule). */
  private async insertGrants(manager: EntityManager, userId: string, roles: readonly string[]): Promise<void> {
    if (roles.length === 0) return;
    const grantedAt = this.clock.now();
    await manager.insert(UserRole, roles.map((role) => ({ userId, role, grantedAt, grantedBy: null })));
  }

  /** What `assignRoles` names for the user; a role the policy does not define fails closed (no grant, the request fails). */
  private assignedRoles(user: SvcUser): string[] {
    const policy = this.config.authorization;
    if (!policy?.assignRoles) return [];
    const named = policy.assignRoles({ email: user.email, emailVerified: user.emailVerifiedAt !== null });
    if (!Array.isArray(named)) throw new AuthConfigError('authorization.assignRoles', 'must return an array of role names', named);
    for (const role of named) {
      if (typeof role !== 'string' || !Object.hasOwn(policy.roles, role)) throw new AuthConfigError('authorization.assignRoles', 'named a role that authorization.roles does not define', role);
    }
    return [...new Set(named as string[])];
  }

  /**
   * The user's row, locked until the transaction ends, so that two operations on one user's
   * password or credentials run one after the other (a login and a reset, two reset requests).
   * PostgreSQL: `FOR NO KEY UPDATE`, which blocks other writers of the row but not inserts that
   * reference it. SQLite needs no lock: the unit of work runs one transaction at a time there.
   */
  lockById(manager: EntityManager, id: string): Promise<SvcUser | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    const query = manager.createQueryBuilder(this.config.userEntity, 'user').where('user.id = :id', { id });
    return (manager.connection.options.type === 'postgres' ? query.setLock('for_no_key_update') : query).getOne();
  }

  /** Whether a user other than `userId` holds this email, or one that looks like it (the same UTS #39 skeleton). */
  async isTakenByAnother(manager: EntityManager, normalizedEmail: string, userId: string): Promise<boolean> {
    const holders = await manager.find(this.config.userEntity, {
      select: { id: true },
      where: [{ email: normalizedEmail }, { emailSkeleton: emailSkeleton(normalizedEmail) }],
    });
    return holders.some((holder) => holder.id !== userId);
  }

  /**
   * Deactivates the user (`isActive` false: every credential refused, docs/guides/principal-cache.md);
   * true when this changed it.
   */
  async deactivate(manager: EntityManager, userId: string): Promise<boolean> {
    const result = await manager.update(this.config.userEntity, { id: userId, isActive: true }, { isActive: false } as Partial<SvcUser>);
    await this.invalidations.userChanged(manager, userId);
    return result.affected === 1;
  }

  /** Activates the user again (docs/guides/administration.md); true when this changed it. */
  async activate(manager: EntityManager, userId: string): Promise<boolean> {
    const result = await manager.update(this.config.userEntity, { id: userId, isActive: false }, { isActive: true } as Partial<SvcUser>);
    if (result.affected !== 1) return false;
    await this.invalidations.userChanged(manager, userId);
    return true;
  }

  /** Deletes the user's row (what references it goes first, or by its foreign key's cascade); true when there was one. */
  async delete(manager: EntityManager, userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const result = await manager.delete(this.config.userEntity, { id: userId });
    await this.invalidations.userChanged(manager, userId);
    return result.affected === 1;
  }

  /** Marks the user's email verified at `at`, unless it is already; true when this changed it. */
  async markEmailVerified(manager: EntityManager, userId: string, at: Date): Promise<boolean> {
    const result = await manager.update(this.config.userEntity, { id: userId, emailVerifiedAt: IsNull() }, { emailVerifiedAt: at } as Partial<SvcUser>);
    if (result.affected !== 1) return false;
    await this.invalidations.userChanged(manager, userId);
    return true;
  }

  /**
   * Gives the user `normalizedEmail` (and its skeleton), verified at `at`. The unique indexes on the
   * email and the skeleton decide a race with a signup or another change to the same address: the
   * loser is `EMAIL_ALREADY_REGISTERED` and writes nothing.
   */
  async switchEmail(manager: EntityManager, userId: string, normalizedEmail: string, at: Date): Promise<void> {
    if (await this.isTakenByAnother(manager, normalizedEmail, userId)) throw new AuthError('EMAIL_ALREADY_REGISTERED');
    try {
      await manager.update(this.config.userEntity, { id: userId }, { email: normalizedEmail, emailSkeleton: emailSkeleton(normalizedEmail), emailVerifiedAt: at } as Partial<SvcUser>);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError('EMAIL_ALREADY_REGISTERED', { cause: error });
      throw error;
    }
    await this.invalidations.userChanged(manager, userId);
  }

  async setPasswordHash(manager: EntityManager, userId: string, passwordHash: string): Promise<void> {
    await manager.update(this.config.userEntity, { id: userId }, { passwordHash } as Partial<SvcUser>);
    await this.invalidations.userChanged(manager, userId);
  }

  /** Replaces the hash only if it is still `expected` (docs/decisions/0009-login-and-concurrent-changes.md: an upgrade never overwrites a newer hash). */
  async replacePasswordHash(manager: EntityManager, userId: string, expected: string, passwordHash: string): Promise<boolean> {
    const result = await manager.update(this.config.userEntity, { id: userId, passwordHash: expected }, { passwordHash } as Partial<SvcUser>);
    if (result.affected !== 1) return false;
    await this.invalidations.userChanged(manager, userId);
    return true;
  }

  /** `users.mfa_totp_enabled`, written in the transaction that changes `mfa_totp` (docs/guides/two-step.md). */
  async setMfaTotpEnabled(manager: EntityManager, userId: string, enabled: boolean): Promise<void> {
    await manager.update(this.config.userEntity, { id: userId }, { mfaTotpEnabled: enabled } as Partial<SvcUser>);
    // The user body says it (`mfa.totp`): a cached principal would show the old answer.
    await this.invalidations.userChanged(manager, userId);
  }

  /** Built once, like the session lookup. */
  private byEmailSql(dataSource: DataSource): string {
    this.byEmail ??= [
      `SELECT ${selectList(dataSource, this.config.userEntity, 'u')}`,
      `FROM ${dataSource.driver.escape(dataSource.getMetadata(this.config.userEntity).tableName)} u`,
      `WHERE u.email = ${parameter(dataSource, 0)}`,
    ].join(' ');
    return this.byEmail;
  }
}

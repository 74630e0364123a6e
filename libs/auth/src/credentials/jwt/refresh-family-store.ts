import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { AUTH_CLOCK, AUTH_CONFIG } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { RefreshFamily } from './refresh-family.entity.js';
import { RefreshToken } from './refresh-token.entity.js';
import type { SvcUser } from '../../entities/user.entity.js';
import type { Impersonation } from '../credential-issuer.js';
import { storableAddressOf } from '../../http/client-address.js';
import { userAgentOf } from '../../http/user-agent.js';
import { preparedQuery } from '../../persistence/prepared-query.js';
import { hydrate, parameter, selectList } from '../../persistence/row-hydrator.js';
import { PrincipalInvalidations } from '../../principal-cache/principal-invalidations.js';
import { rolesColumn, rolesFromRow, withRoles } from '../../users/user-roles.js';
import { organizationFromRow, organizationJoin, withOrganization } from '../../users/user-organization.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';

/** A family that has at least one refresh token that could still be presented (raw SQL over `refresh_tokens`). */
const HAS_USABLE_TOKEN = 'EXISTS (SELECT 1 FROM refresh_tokens usable WHERE usable.family_id = family.id AND usable.consumed_at IS NULL AND usable.revoked_at IS NULL AND usable.expires_at > :now)';
/** A family one of whose tokens is revoked counts as revoked (docs/decisions/0013-refresh-tokens-jwt.md). */
const HAS_NO_REVOKED_TOKEN = 'NOT EXISTS (SELECT 1 FROM refresh_tokens revoked WHERE revoked.family_id = family.id AND revoked.revoked_at IS NOT NULL)';

/**
 * Rows of `refresh_families` (docs/decisions/0002-schema.md): one per login of the jwt credential, written when
 * it starts and touched at each refresh. Where a family's absolute end and revocation live, and
 * what GET /sessions lists for jwt.
 */
@Injectable()
export class RefreshFamilyStore {
  private liveFamilyUser?: string;
  private expiresAt?: { dataSource: DataSource; column: ColumnMetadata };

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(JWT_SETTINGS) private readonly jwt: JwtSettings,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly invalidations: PrincipalInvalidations,
  ) {}

  /**
   * Stages a new family for a login: its device (user agent, the client's network) and its absolute
   * end, `refreshFamilyTtlSeconds` from now (OWASP Session Management Cheat Sheet, "Absolute Timeout"),
   * or an impersonation's lifetime when that is shorter.
   */
  async start(manager: EntityManager, userId: string, request: Request, impersonation?: Impersonation): Promise<{ id: string; authTime: Date }> {
    const id = randomUUID();
    const now = this.clock.now();
    const lifetimeSeconds = Math.min(this.jwt.refreshFamilyTtlSeconds, impersonation?.lifetimeSeconds ?? Infinity);
    await manager.insert(RefreshFamily, {
      id,
      userId,
      createdAt: now,
      lastUsedAt: now,
      // A login is a real sign-in: the credential is fresh (docs/decisions/0028-fresh-sign-in.md).
      authTime: now,
      userAgent: userAgentOf(request),
      ip: storableAddressOf(request, this.config),
      expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
      revokedAt: null,
      impersonatedBy: impersonation?.actorId ?? null,
    });
    return { id, authTime: now };
  }

  /** The family, if it may still be used: it exists, is not revoked and has not reached its absolute end. */
  async findLive(manager: EntityManager, familyId: string): Promise<RefreshFamily | null> {
    const family = await manager.findOneBy(RefreshFamily, { id: familyId });
    return family !== null && family.revokedAt === null && family.expiresAt.getTime() > this.clock.now().getTime() ? family : null;
  }

  /** A refresh of the family: its last use is now. */
  async touch(manager: EntityManager, familyId: string): Promise<void> {
    await manager.update(RefreshFamily, { id: familyId }, { lastUsedAt: this.clock.now() });
  }

  /** A re-authentication through this family (docs/decisions/0028-fresh-sign-in.md): its sign-in is now, and the next refresh carries it. */
  async reauthenticated(manager: EntityManager, familyId: string): Promise<Date> {
    const now = this.clock.now();
    await manager.update(RefreshFamily, { id: familyId }, { authTime: now });
    return now;
  }

  /**
   * Marks families revoked: `familyId` alone, or every family of `userId` (but `exceptFamilyId`).
   * The caller revokes their tokens first, in the same order as a refresh locks them (token, then family).
   * Cached principals of what it revokes go too (docs/guides/principal-cache.md).
   */
  async revoke(manager: EntityManager, where: { familyId: string } | { userId: string; exceptFamilyId?: string }): Promise<void> {
    const query = manager.createQueryBuilder().update(RefreshFamily).set({ revokedAt: this.clock.now() }).where('revoked_at IS NULL');
    if ('familyId' in where) query.andWhere('id = :familyId', { familyId: where.familyId });
    else {
      query.andWhere('user_id = :userId', { userId: where.userId });
      if (where.exceptFamilyId !== undefined) query.andWhere('id <> :exceptFamilyId', { exceptFamilyId: where.exceptFamilyId });
    }
    await query.execute();
    await ('familyId' in where ? this.invalidations.familyRevoked(manager, where.familyId) : this.invalidations.userChanged(manager, where.userId));
  }

  /**
   * The user (with `authorization`, and its roles; with `organizations`, the family's active organization), if the family `familyId` is that user's, not revoked (its row, or any of its tokens)
   * and before its absolute end, with that end: one query (docs/decisions/0012-access-tokens-jwt.md; ASVS 5.0
   * V7.4.1), a primary-key join and a probe of the partial index of revoked tokens, so a revoked or
   * ended family, or a deleted user, is refused at once.
   */
  async findUserOfLiveFamily(manager: EntityManager, userId: string, familyId: string): Promise<{ user: SvcUser; familyEndsAt: Date } | null> {
    const { connection } = manager;
    const rows = await preparedQuery(manager, this.liveFamilyUserSql(connection), [userId, familyId]);
    if (rows.length === 0) return null;
    // What `hydratedValue` does, with the column looked up once. The family's end is compared here,
    // not in the statement: the same test, without turning the clock into a parameter at every request.
    const familyEndsAt = connection.driver.prepareHydratedValue(rows[0].f_expires_at, this.expiresAtColumnOf(connection)) as Date;
    if (familyEndsAt.getTime() <= this.clock.now().getTime()) return null;
    const user = hydrate<SvcUser>(connection, this.config.userEntity, 'u', rows[0]);
    if (this.config.authorization) withRoles(user, rolesFromRow(rows[0]));
    if (this.config.organizations) withOrganization(user, organizationFromRow(rows[0]));
    return { user, familyEndsAt };
  }

  /**
   * With `organizations`: the family's active organization while its user is a member of it, for the
   * `org` claim of the access tokens a refresh signs; undefined for none (and, without the section, no statement).
   */
  async activeOrganizationOf(manager: EntityManager, familyId: string): Promise<string | undefined> {
    if (!this.config.organizations) return undefined;
    const { driver } = manager.connection;
    const [sql, parameters] = driver.escapeQueryWithParameters(
      'SELECT om.organization_id AS organization_id FROM refresh_families f INNER JOIN organization_members om ON om.organization_id = f.active_organization_id AND om.user_id = f.user_id WHERE f.id = :familyId',
      { familyId },
    );
    const rows: { organization_id: string }[] = await manager.query(sql, parameters);
    return rows[0]?.organization_id;
  }

  /** With `organizations`: the organization the family acts in from now on (null: none); its cached principal goes. */
  async setActiveOrganization(manager: EntityManager, familyId: string, organizationId: string | null): Promise<void> {
    const { driver } = manager.connection;
    const [sql, parameters] = driver.escapeQueryWithParameters('UPDATE refresh_families SET active_organization_id = :organizationId WHERE id = :familyId', { organizationId, familyId });
    await manager.query(sql, parameters);
    await this.invalidations.familyRevoked(manager, familyId);
  }

  /** The user's live families (not revoked, before their end, with a token that could still be presented), newest first. */
  findLiveOfUser(manager: EntityManager, userId: string, familyId?: string): Promise<RefreshFamily[]> {
    const query = manager
      .createQueryBuilder(RefreshFamily, 'family')
      .where('family.userId = :userId AND family.revokedAt IS NULL AND family.expiresAt > :now', { userId, now: this.clock.now() })
      .andWhere(HAS_USABLE_TOKEN)
      .andWhere(HAS_NO_REVOKED_TOKEN)
      .orderBy('family.createdAt', 'DESC')
      .addOrderBy('family.id', 'DESC');
    if (familyId !== undefined) query.andWhere('family.id = :familyId', { familyId });
    return query.getMany();
  }

  /**
   * Deletes the families that can no longer matter; the caller commits, after the tokens' purge
   * (which deletes the tokens of families past their end). A family goes at its absolute end, or
   * once none of its tokens is left (its revocation, if any, then has nothing left to guard).
   */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(RefreshFamily)
      .where('expires_at <= :now OR NOT EXISTS (SELECT 1 FROM refresh_tokens token WHERE token.family_id = refresh_families.id)', { now: this.clock.now() })
      .execute();
    return result.affected ?? 0;
  }

  /** `expires_at`'s metadata, found once per data source (`hydratedValue` looks it up at every call). */
  private expiresAtColumnOf(dataSource: DataSource): ColumnMetadata {
    if (this.expiresAt?.dataSource !== dataSource) {
      const column = dataSource.getMetadata(RefreshFamily).findColumnWithPropertyName('expiresAt');
      if (!column) throw new TypeError('svc: RefreshFamily has no column expiresAt');
      this.expiresAt = { dataSource, column };
    }
    return this.expiresAt.column;
  }

  /** Built once: the guard runs it on every request, so no query builder on that path. */
  private liveFamilyUserSql(dataSource: DataSource): string {
    const { driver } = dataSource;
    const table = (entity: Function) => driver.escape(dataSource.getMetadata(entity).tableName);
    const organization = this.config.organizations ? organizationJoin(dataSource, 'f', 'u.id') : undefined;
    this.liveFamilyUser ??= [
      `SELECT ${selectList(dataSource, this.config.userEntity, 'u')}, f.expires_at AS f_expires_at${this.config.authorization ? `, ${rolesColumn(dataSource, 'u')}` : ''}${organization ? `, ${organization.select}` : ''}`,
      `FROM ${table(this.config.userEntity)} u`,
      `INNER JOIN ${table(RefreshFamily)} f ON f.user_id = u.id`,
      ...(organization ? [organization.join] : []),
      `WHERE u.id = ${parameter(dataSource, 0)} AND f.id = ${parameter(dataSource, 1)}`,
      'AND f.revoked_at IS NULL',
      `AND NOT EXISTS (SELECT 1 FROM ${table(RefreshToken)} r WHERE r.family_id = f.id AND r.revoked_at IS NOT NULL)`,
    ].join(' ');
    return this.liveFamilyUser;
  }
}

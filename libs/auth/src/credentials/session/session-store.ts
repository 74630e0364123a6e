import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { type DataSource, type EntityManager, In, Not } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { Session } from './session.entity.js';
import type { SvcUser } from '../../entities/user.entity.js';
import { storableAddressOf } from '../../http/client-address.js';
import { userAgentOf } from '../../http/user-agent.js';
import { hashToken, randomToken } from '../../crypto/opaque-token.js';
import { preparedQuery } from '../../persistence/prepared-query.js';
import { hydrate, parameter, selectList } from '../../persistence/row-hydrator.js';
import type { Impersonation } from '../credential-issuer.js';
import type { Principal } from '../credential-resolver.js';
import type { CredentialRevoker } from '../credential-revoker.js';
import { PrincipalInvalidations } from '../../principal-cache/principal-invalidations.js';
import { rolesColumn, rolesFromRow, withRoles } from '../../users/user-roles.js';
import { organizationFromRow, organizationJoin, withOrganization } from '../../users/user-organization.js';

const DAY_MS = 86_400_000;
/** `last_seen_at` is refreshed at most this often, so reads stay reads. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/** Session rows: created at login, resolved per request, deleted at logout (docs/decisions/0007-sessions.md). */
@Injectable()
export class SessionStore implements CredentialRevoker {
  private lookup?: string;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly invalidations: PrincipalInvalidations,
  ) {}

  /**
   * A fresh session id at every login; the one the request presented is deleted (OWASP Session
   * Management: renew the id on login, no session fixation). The oldest beyond `maxPerUser` go.
   * An impersonation's session ends within its lifetime and evicts none of the user's own.
   */
  async create(manager: EntityManager, user: SvcUser, request: Request, presentedToken?: string, impersonation?: Impersonation): Promise<IssuedSession> {
    if (presentedToken) await this.delete(manager, presentedToken);
    const token = randomToken();
    const now = this.clock.now();
    const lifetimeMs = Math.min(this.config.session.expireDays * DAY_MS, (impersonation?.lifetimeSeconds ?? Infinity) * 1000);
    const expiresAt = new Date(now.getTime() + lifetimeMs);
    await manager.insert(Session, {
      id: randomUUID(),
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt,
      createdAt: now,
      lastSeenAt: now,
      // A login is a real sign-in: the credential is fresh (docs/decisions/0028-fresh-sign-in.md).
      authTime: now,
      ip: storableAddressOf(request, this.config),
      userAgent: userAgentOf(request),
      impersonatedBy: impersonation?.actorId ?? null,
    });
    if (!impersonation) await this.evictBeyondLimit(manager, user.id);
    return { token, expiresAt };
  }

  /** The session and its user (with `authorization`, its roles too; with `organizations`, the session's active organization) in one query, or null when the token's hash (`hashToken`) matches no row. */
  async findWithUser(manager: EntityManager, tokenHash: string): Promise<{ session: Session; user: SvcUser } | null> {
    const rows = await preparedQuery(manager, this.lookupSql(manager.connection), [tokenHash]);
    if (rows.length === 0) return null;
    const user = hydrate<SvcUser>(manager.connection, this.config.userEntity, 'u', rows[0]);
    if (this.config.authorization) withRoles(user, rolesFromRow(rows[0]));
    if (this.config.organizations) withOrganization(user, organizationFromRow(rows[0]));
    return { session: hydrate<Session>(manager.connection, Session, 's', rows[0]), user };
  }

  /**
   * Past its expiry, or past its absolute lifetime from its login however recently it was used
   * (OWASP Session Management Cheat Sheet, "Absolute Timeout"; docs/decisions/0007-sessions.md). The absolute
   * end is read from `created_at` and the current option, so lowering the option ends older
   * sessions at once.
   */
  isExpired(session: Session): boolean {
    const now = this.clock.now().getTime();
    return session.expiresAt.getTime() <= now || session.createdAt.getTime() <= this.absoluteStart().getTime();
  }

  /**
   * Until when a cache may serve the session's principal (docs/guides/principal-cache.md): never past its
   * expiry or absolute end, and never past the moment its `last_seen_at` is due again.
   */
  cacheableUntil(session: Session): number {
    const absoluteEnd = session.createdAt.getTime() + this.config.session.absoluteTtlSeconds * 1000;
    return Math.min(session.expiresAt.getTime(), absoluteEnd, session.lastSeenAt.getTime() + LAST_SEEN_RESOLUTION_MS);
  }

  async touch(manager: EntityManager, session: Session): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - session.lastSeenAt.getTime() < LAST_SEEN_RESOLUTION_MS) return;
    await manager.update(Session, { id: session.id }, { lastSeenAt: now });
  }

  /**
   * A re-authentication through this session (docs/decisions/0028-fresh-sign-in.md): its sign-in is
   * now. Its cached principal goes, so the next request reads the new time.
   */
  async reauthenticated(manager: EntityManager, sessionId: string, userId: string): Promise<void> {
    await manager.update(Session, { id: sessionId }, { authTime: this.clock.now() });
    await this.invalidations.userChanged(manager, userId);
  }

  /** With `organizations`: the organization the session acts in from now on (null: none); the user's cached principals go. */
  async setActiveOrganization(manager: EntityManager, session: { id: string; userId: string }, organizationId: string | null): Promise<void> {
    const { driver } = manager.connection;
    const [sql, parameters] = driver.escapeQueryWithParameters('UPDATE sessions SET active_organization_id = :organizationId WHERE id = :sessionId', { organizationId, sessionId: session.id });
    await manager.query(sql, parameters);
    await this.invalidations.userChanged(manager, session.userId);
  }

  /** Deletes the session the token names; returns its user id, if there was one. */
  async delete(manager: EntityManager, token: string): Promise<string | undefined> {
    const session = await manager.findOneBy(Session, { tokenHash: hashToken(token) });
    if (!session) return undefined;
    await manager.delete(Session, { id: session.id });
    await this.invalidations.userChanged(manager, session.userId);
    return session.userId;
  }

  /** Every session of the user (password reset, log out everywhere). */
  async revokeAllOfUser(manager: EntityManager, userId: string): Promise<void> {
    await manager.delete(Session, { userId });
    await this.invalidations.userChanged(manager, userId);
  }

  /** Every session of the user but the one with id `keptId` (none kept when null). */
  async revokeAllOfUserExcept(manager: EntityManager, userId: string, keptId: string | null): Promise<void> {
    await manager.delete(Session, keptId ? { userId, id: Not(keptId) } : { userId });
    await this.invalidations.userChanged(manager, userId);
  }

  /** Every session of the user but the presented one. */
  async revokeOthersOfUser(manager: EntityManager, userId: string, kept: Principal): Promise<void> {
    await manager.delete(Session, kept.sessionId ? { userId, id: Not(kept.sessionId) } : { userId });
    await this.invalidations.userChanged(manager, userId);
  }

  /** Built once: the guard runs it on every request, so no query builder on that path. */
  private lookupSql(dataSource: DataSource): string {
    const organization = this.config.organizations ? organizationJoin(dataSource, 's', 's.user_id') : undefined;
    this.lookup ??= [
      `SELECT ${selectList(dataSource, this.config.userEntity, 'u')}, ${selectList(dataSource, Session, 's')}${this.config.authorization ? `, ${rolesColumn(dataSource, 'u')}` : ''}${organization ? `, ${organization.select}` : ''}`,
      `FROM ${dataSource.driver.escape(dataSource.getMetadata(Session).tableName)} s`,
      `INNER JOIN ${dataSource.driver.escape(dataSource.getMetadata(this.config.userEntity).tableName)} u ON u.id = s.user_id`,
      ...(organization ? [organization.join] : []),
      `WHERE s.token_hash = ${parameter(dataSource, 0)}`,
    ].join(' ');
    return this.lookup;
  }

  /** Deletes the sessions past their expiry or their absolute lifetime; the caller commits. */
  async purgeExpired(manager: EntityManager): Promise<number> {
    const now = this.clock.now();
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(Session)
      .where('expires_at <= :now OR created_at <= :absoluteStart', { now, absoluteStart: this.absoluteStart() })
      .execute();
    return result.affected ?? 0;
  }

  /** Sessions created at or before this instant are past their absolute lifetime. */
  absoluteStart(): Date {
    return new Date(this.clock.now().getTime() - this.config.session.absoluteTtlSeconds * 1000);
  }

  private async evictBeyondLimit(manager: EntityManager, userId: string): Promise<void> {
    const surplus = await manager.find(Session, {
      select: { id: true },
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: this.config.session.maxPerUser,
    });
    if (surplus.length === 0) return;
    await manager.delete(Session, { id: In(surplus.map((row) => row.id)) });
    await this.invalidations.userChanged(manager, userId);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type DataSource, type EntityManager, IsNull } from 'typeorm';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { ApiKey } from '../entities/api-key.entity.js';
import type { SvcUser } from '../entities/user.entity.js';
import { preparedQuery } from '../persistence/prepared-query.js';
import { hydrate, parameter, persistentValue, selectList } from '../persistence/row-hydrator.js';
import { isUuid } from '../persistence/uuid.js';
import { rolesColumn, rolesFromRow, withRoles } from '../users/user-roles.js';
import type { MintedApiKey } from './api-key-token.js';

/** The rows of `api_keys` (docs/guides/machine-access.md). */
@Injectable()
export class ApiKeyStore {
  private lookup?: string;
  private liveCount?: string;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  /**
   * The key whose hash this is, with its owner (and, with `authorization`, the owner's roles), in one
   * query through the unique index of `key_hash`; or null. Equality on the hash of a 256-bit secret:
   * no comparison of the secret happens in the application, so there is none to time.
   */
  async findWithUser(manager: EntityManager, keyHash: string): Promise<{ key: ApiKey; user: SvcUser } | null> {
    const rows = await preparedQuery(manager, this.lookupSql(manager.connection), [keyHash]);
    if (rows.length === 0) return null;
    const user = hydrate<SvcUser>(manager.connection, this.config.userEntity, 'u', rows[0]);
    return {
      key: hydrate<ApiKey>(manager.connection, ApiKey, 'k', rows[0]),
      user: this.config.authorization ? withRoles(user, rolesFromRow(rows[0])) : user,
    };
  }

  /** Keys of the user that are neither revoked nor expired: what counts toward `maxPerUser`. */
  async countLive(manager: EntityManager, userId: string, now: Date): Promise<number> {
    const rows = await manager.query(this.liveCountSql(manager.connection), [userId, persistentValue(manager.connection, ApiKey, 'expiresAt', now)]);
    return Number((rows as Record<string, unknown>[])[0].live);
  }

  async insert(manager: EntityManager, userId: string, minted: MintedApiKey, fields: { name: string; scopes: string[]; createdAt: Date; expiresAt: Date | null }): Promise<ApiKey> {
    const row: ApiKey = { id: randomUUID(), userId, keyHash: minted.hash, start: minted.start, lastUsedAt: null, revokedAt: null, ...fields };
    await manager.insert(ApiKey, row);
    return row;
  }

  /** The user's keys not revoked (expired ones too, so the user sees them end), newest first. */
  listOf(manager: EntityManager, userId: string): Promise<ApiKey[]> {
    return manager.find(ApiKey, { where: { userId, revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The user's unrevoked key of this id, or null (another user's, an unknown id, one revoked already). */
  findOwned(manager: EntityManager, userId: string, id: string): Promise<ApiKey | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return manager.findOneBy(ApiKey, { id, userId, revokedAt: IsNull() });
  }

  async revoke(manager: EntityManager, key: ApiKey, at: Date): Promise<void> {
    await manager.update(ApiKey, { id: key.id, revokedAt: IsNull() }, { revokedAt: at });
  }

  async touch(manager: EntityManager, key: ApiKey, at: Date): Promise<void> {
    await manager.update(ApiKey, { id: key.id }, { lastUsedAt: at });
  }

  /** Built once: every request that presents a key runs it, so no query builder on that path. */
  private lookupSql(dataSource: DataSource): string {
    this.lookup ??= [
      `SELECT ${selectList(dataSource, this.config.userEntity, 'u')}, ${selectList(dataSource, ApiKey, 'k')}${this.config.authorization ? `, ${rolesColumn(dataSource, 'u')}` : ''}`,
      `FROM ${dataSource.driver.escape(dataSource.getMetadata(ApiKey).tableName)} k`,
      `INNER JOIN ${dataSource.driver.escape(dataSource.getMetadata(this.config.userEntity).tableName)} u ON u.id = k.user_id`,
      `WHERE k.key_hash = ${parameter(dataSource, 0)}`,
    ].join(' ');
    return this.lookup;
  }

  private liveCountSql(dataSource: DataSource): string {
    this.liveCount ??= [
      `SELECT COUNT(*) AS live FROM ${dataSource.driver.escape(dataSource.getMetadata(ApiKey).tableName)}`,
      `WHERE user_id = ${parameter(dataSource, 0)} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${parameter(dataSource, 1)})`,
    ].join(' ');
    return this.liveCount;
  }
}

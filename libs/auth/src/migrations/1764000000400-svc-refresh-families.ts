import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { networkOf } from '../http/ip-address.js';
import { columnTypes } from './column-types.js';

/** `jwt.refreshFamilyTtlSeconds`' default: the absolute lifetime existing families are given. */
const DEFAULT_FAMILY_TTL_SECONDS = 30 * 86_400;

/**
 * Devices and lifetimes (docs/guides/devices.md):
 * - `refresh_families`, one row per login of the jwt credential, with its device details, absolute
 *   end and revocation; every family already in `refresh_tokens` gets its row (created at its first
 *   token, last used at its last, ending 30 days after it started, revoked if any token is), so that
 *   existing logins stay valid across the upgrade;
 * - a partial index of the revoked rows of `refresh_tokens`, so that "has this family a revoked
 *   token?" is an index probe however many rotations the family has seen;
 * - the addresses of existing sessions cut down to their network (IPv4 /24, IPv6 /48), as new ones
 *   are stored. `down` restores the schema; the cut addresses cannot be restored.
 */
export class SvcRefreshFamilies1764000000400 implements MigrationInterface {
  name = 'SvcRefreshFamilies1764000000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'refresh_families',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.uuid('user_id'),
          t.timestamp('created_at'),
          t.timestamp('last_used_at'),
          t.text('user_agent', 512, { isNullable: true }),
          t.text('ip', 64, { isNullable: true }),
          t.timestamp('expires_at'),
          t.timestamp('revoked_at', { isNullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'ix_refresh_families_user_id', columnNames: ['user_id', 'created_at'] }),
          new TableIndex({ name: 'ix_refresh_families_expires_at', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({ name: 'fk_refresh_families_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
      }),
    );
    await queryRunner.createIndex('refresh_tokens', new TableIndex({ name: 'ix_refresh_tokens_revoked_family', columnNames: ['family_id'], where: 'revoked_at IS NOT NULL' }));
    const end = postgres ? `MIN(created_at) + $1 * interval '1 second'` : `strftime('%Y-%m-%d %H:%M:%f', MIN(created_at), '+' || ? || ' seconds')`;
    await queryRunner.query(
      `INSERT INTO refresh_families (id, user_id, created_at, last_used_at, user_agent, ip, expires_at, revoked_at)
       SELECT family_id, user_id, MIN(created_at), MAX(created_at), NULL, NULL, ${end}, MIN(revoked_at)
       FROM refresh_tokens GROUP BY family_id, user_id`,
      [DEFAULT_FAMILY_TTL_SECONDS],
    );
    const addresses: { ip: string }[] = await queryRunner.query('SELECT DISTINCT ip FROM sessions WHERE ip IS NOT NULL');
    for (const { ip } of addresses) {
      const network = networkOf(ip);
      if (network === ip) continue;
      await queryRunner.query(postgres ? 'UPDATE sessions SET ip = $1 WHERE ip = $2' : 'UPDATE sessions SET ip = ? WHERE ip = ?', [network, ip]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('refresh_tokens', 'ix_refresh_tokens_revoked_family');
    await queryRunner.dropTable('refresh_families', true);
  }
}

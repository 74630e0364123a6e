import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from './column-types.js';

/** The library's tables (docs/decisions/0002-schema.md), on PostgreSQL and SQLite. */
export class SvcInitialSchema1763700000000 implements MigrationInterface {
  name = 'SvcInitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    const userFk = (table: string, onDelete: 'CASCADE' = 'CASCADE') =>
      new TableForeignKey({ name: `fk_${table}_user`, columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete });

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('email', 320, { isUnique: true }),
          t.text('password_hash', 255, { isNullable: true }),
          { name: 'is_active', type: 'boolean', default: true },
          t.createdAt(),
          t.createdAt('updated_at'),
        ],
        uniques: [{ name: 'uq_users_email', columnNames: ['email'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('token_hash', 64),
          t.uuid('user_id'),
          t.timestamp('expires_at'),
          t.createdAt(),
          t.timestamp('last_seen_at'),
          t.text('ip', 64, { isNullable: true }),
          t.text('user_agent', 512, { isNullable: true }),
        ],
        uniques: [{ name: 'uq_sessions_token_hash', columnNames: ['token_hash'] }],
        indices: [new TableIndex({ name: 'ix_sessions_user_id', columnNames: ['user_id', 'created_at'] })],
        foreignKeys: [userFk('sessions')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('token_hash', 64),
          t.uuid('family_id'),
          t.uuid('user_id'),
          t.timestamp('expires_at'),
          t.timestamp('consumed_at', { isNullable: true }),
          t.timestamp('revoked_at', { isNullable: true }),
          t.createdAt(),
        ],
        uniques: [{ name: 'uq_refresh_tokens_token_hash', columnNames: ['token_hash'] }],
        indices: [
          new TableIndex({ name: 'ix_refresh_tokens_family_id', columnNames: ['family_id'] }),
          new TableIndex({ name: 'ix_refresh_tokens_user_id', columnNames: ['user_id'] }),
          new TableIndex({ name: 'ix_refresh_tokens_expires_at', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [userFk('refresh_tokens')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'password_reset_tokens',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('token_hash', 64),
          t.uuid('user_id'),
          t.timestamp('expires_at'),
          t.timestamp('used_at', { isNullable: true }),
          t.createdAt(),
        ],
        uniques: [{ name: 'uq_password_reset_tokens_token_hash', columnNames: ['token_hash'] }],
        indices: [new TableIndex({ name: 'ix_password_reset_tokens_user_id', columnNames: ['user_id'] })],
        foreignKeys: [userFk('password_reset_tokens')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'oauth_accounts',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('provider', 64),
          t.text('provider_user_id', 255),
          t.uuid('user_id'),
          t.text('email', 320, { isNullable: true }),
          t.createdAt(),
        ],
        uniques: [{ name: 'uq_oauth_accounts_provider_user', columnNames: ['provider', 'provider_user_id'] }],
        indices: [new TableIndex({ name: 'ix_oauth_accounts_user_id', columnNames: ['user_id'] })],
        foreignKeys: [userFk('oauth_accounts')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'rate_limit_counters',
        columns: [
          t.text('key', 255, { isPrimary: true }),
          { name: 'window_start', type: 'bigint' },
          { name: 'count', type: 'integer' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['rate_limit_counters', 'oauth_accounts', 'password_reset_tokens', 'refresh_tokens', 'sessions', 'users']) {
      await queryRunner.dropTable(table, true);
    }
  }
}

import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';

/**
 * API keys (docs/guides/machine-access.md): `api_keys`, one row per key a user created: its SHA-256
 * (unique, the lookup of every request that presents it), its `start` for the list, its scopes (JSON
 * text), and when it was created, expires, was last used and was revoked. The rows go with their user.
 */
export class SvcApiKeys1764000001100 implements MigrationInterface {
  name = 'SvcApiKeys1764000001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.uuid('user_id'),
          t.text('name', 64),
          t.text('key_hash', 64),
          t.text('start', 40),
          { name: 'scopes', type: 'text' },
          t.createdAt(),
          t.timestamp('expires_at', { isNullable: true }),
          t.timestamp('last_used_at', { isNullable: true }),
          t.timestamp('revoked_at', { isNullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'uq_api_keys_key_hash', columnNames: ['key_hash'], isUnique: true }),
          new TableIndex({ name: 'ix_api_keys_user_id', columnNames: ['user_id', 'created_at'] }),
        ],
        foreignKeys: [new TableForeignKey({ name: 'fk_api_keys_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_keys', true);
  }
}

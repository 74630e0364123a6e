import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';
import { alterSqliteTableInPlace, isSqlite } from './sqlite-in-place.js';

/**
 * Email verification and change of email (docs/guides/email.md):
 * `users.email_verified_at` (null for every existing user: nobody has proven their address yet),
 * and `email_tokens`, the mailed single-use tokens, stored as their SHA-256.
 */
export class SvcEmailLifecycle1764000000300 implements MigrationInterface {
  name = 'SvcEmailLifecycle1764000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, 'users', 'ALTER TABLE "users" ADD COLUMN "email_verified_at" datetime');
    else await queryRunner.addColumn('users', new TableColumn(t.timestamp('email_verified_at', { isNullable: true })));
    await queryRunner.createTable(
      new Table({
        name: 'email_tokens',
        columns: [
          t.uuid('id', { isPrimary: true }),
          t.text('token_hash', 64),
          t.uuid('user_id'),
          t.text('purpose', 16),
          t.text('new_email', 320, { isNullable: true }),
          t.text('requested_by', 36, { isNullable: true }),
          t.timestamp('expires_at'),
          t.timestamp('used_at', { isNullable: true }),
          t.createdAt(),
        ],
        uniques: [{ name: 'uq_email_tokens_token_hash', columnNames: ['token_hash'] }],
        indices: [
          new TableIndex({ name: 'ix_email_tokens_user_id', columnNames: ['user_id', 'purpose'] }),
          new TableIndex({ name: 'ix_email_tokens_expires_at', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [new TableForeignKey({ name: 'fk_email_tokens_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('email_tokens', true);
    if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, 'users', 'ALTER TABLE "users" DROP COLUMN "email_verified_at"');
    else await queryRunner.dropColumn('users', 'email_verified_at');
  }
}

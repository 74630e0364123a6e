import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';
import { alterSqliteTableInPlace, isSqlite } from './sqlite-in-place.js';

/**
 * Two-step login (docs/guides/two-step.md): `users.mfa_totp_enabled` (false for every existing
 * user), `mfa_totp`, one encrypted authenticator secret per user with the last time step it
 * accepted, and `mfa_recovery_codes`, single-use codes stored as their SHA-256.
 */
export class SvcMfaTotp1764000000500 implements MigrationInterface {
  name = 'SvcMfaTotp1764000000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnTypes(queryRunner);
    if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, 'users', 'ALTER TABLE "users" ADD COLUMN "mfa_totp_enabled" boolean NOT NULL DEFAULT (0)');
    else await queryRunner.addColumn('users', new TableColumn({ name: 'mfa_totp_enabled', type: 'boolean', default: false }));
    await queryRunner.createTable(
      new Table({
        name: 'mfa_totp',
        columns: [
          t.uuid('user_id', { isPrimary: true }),
          t.text('secret_ciphertext', 255),
          t.text('key_id', 16),
          t.timestamp('enabled_at', { isNullable: true }),
          { name: 'last_used_step', type: 'integer', isNullable: true },
          t.createdAt(),
        ],
        foreignKeys: [new TableForeignKey({ name: 'fk_mfa_totp_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mfa_recovery_codes',
        columns: [t.uuid('id', { isPrimary: true }), t.uuid('user_id'), t.text('code_hash', 64), t.timestamp('used_at', { isNullable: true }), t.createdAt()],
        uniques: [{ name: 'uq_mfa_recovery_codes_code_hash', columnNames: ['code_hash'] }],
        indices: [new TableIndex({ name: 'ix_mfa_recovery_codes_user_id', columnNames: ['user_id'] })],
        foreignKeys: [
          new TableForeignKey({ name: 'fk_mfa_recovery_codes_user', columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mfa_recovery_codes', true);
    await queryRunner.dropTable('mfa_totp', true);
    if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, 'users', 'ALTER TABLE "users" DROP COLUMN "mfa_totp_enabled"');
    else await queryRunner.dropColumn('users', 'mfa_totp_enabled');
  }
}

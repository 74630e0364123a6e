import { type MigrationInterface, type QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { columnTypes } from './column-types.js';
import { alterSqliteTableInPlace, isSqlite } from './sqlite-in-place.js';

/** The credentials that carry an impersonation's mark (docs/guides/administration.md). */
const CREDENTIAL_TABLES = ['sessions', 'refresh_families'] as const;

/**
 * User administration (docs/guides/administration.md):
 * - `sessions.impersonated_by` and `refresh_families.impersonated_by`: the administrator acting as
 *   the user through that credential, null for the user's own;
 * - `ix_users_created_at_id`, the order of the user list (newest first, keyset paging on
 *   `(created_at, id)`), and on PostgreSQL `ix_users_email_prefix` (`text_pattern_ops`), so a prefix
 *   search of the email is an index range whatever the database's collation. SQLite compares with
 *   its BINARY collation, for which the unique index of `email` serves the range.
 */
export class SvcAdministration1764000000800 implements MigrationInterface {
  name = 'SvcAdministration1764000000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of CREDENTIAL_TABLES) {
      if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, table, `ALTER TABLE "${table}" ADD COLUMN "impersonated_by" varchar(36)`);
      else await queryRunner.addColumn(table, new TableColumn(columnTypes(queryRunner).uuid('impersonated_by', { isNullable: true })));
    }
    await queryRunner.createIndex('users', new TableIndex({ name: 'ix_users_created_at_id', columnNames: ['created_at', 'id'] }));
    if (!isSqlite(queryRunner)) await queryRunner.query('CREATE INDEX "ix_users_email_prefix" ON "users" ("email" text_pattern_ops)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isSqlite(queryRunner)) await queryRunner.query('DROP INDEX "ix_users_email_prefix"');
    await queryRunner.dropIndex('users', 'ix_users_created_at_id');
    for (const table of CREDENTIAL_TABLES) {
      if (isSqlite(queryRunner)) await alterSqliteTableInPlace(queryRunner, table, `ALTER TABLE "${table}" DROP COLUMN "impersonated_by"`);
      else await queryRunner.dropColumn(table, 'impersonated_by');
    }
  }
}

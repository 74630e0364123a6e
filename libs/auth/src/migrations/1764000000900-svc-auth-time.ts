import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { columnTypes } from './column-types.js';
import { isSqlite } from './sqlite-in-place.js';

/** The credentials that record their last real sign-in (docs/decisions/0028-fresh-sign-in.md). */
const CREDENTIAL_TABLES = ['sessions', 'refresh_families'] as const;

/**
 * Fresh sign-in (docs/guides/account-security.md): `sessions.auth_time` and
 * `refresh_families.auth_time`, the moment of the credential's last real sign-in. A row that exists
 * already was signed in when it was created, so it takes its `created_at`.
 */
export class SvcAuthTime1764000000900 implements MigrationInterface {
  name = 'SvcAuthTime1764000000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of CREDENTIAL_TABLES) {
      // SQLite: in place, and without reading the table again: that would replace the runner's view of
      // users, which an application migration later in the same run copies users from (sqlite-in-place.ts).
      if (isSqlite(queryRunner)) await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "auth_time" datetime`);
      else await queryRunner.addColumn(table, new TableColumn(columnTypes(queryRunner).timestamp('auth_time', { isNullable: true })));
      await queryRunner.query(`UPDATE "${table}" SET "auth_time" = "created_at"`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of CREDENTIAL_TABLES) {
      if (isSqlite(queryRunner)) await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "auth_time"`);
      else await queryRunner.dropColumn(table, 'auth_time');
    }
  }
}

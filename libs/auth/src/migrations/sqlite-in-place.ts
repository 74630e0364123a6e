import type { QueryRunner } from 'typeorm';

export function isSqlite(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.options.type !== 'postgres';
}

/**
 * On SQLite, svc alters `users` in place (ALTER TABLE ... ADD / DROP COLUMN, SQLite 3.35+) rather
 * than as TypeORM's `addColumn` / `dropColumn` do, by copying it into a new table and dropping the
 * old one: a revert runs inside its transaction, where foreign keys cannot be switched off, so
 * dropping the old `users` would cascade to every session, token and linked account.
 *
 * The table is then read again into the query runner's view of the schema (`getTable` replaces the
 * tables the runner has loaded). TypeORM's SQLite runner copies a table from the columns it last
 * loaded, so without this a later migration's `addColumns('users', [...])` in the same run (the
 * application's, docs/guides/application.md) would copy `users` without this
 * column, and drop it.
 */
export async function alterSqliteTableInPlace(queryRunner: QueryRunner, table: string, statement: string): Promise<void> {
  await queryRunner.query(statement);
  await queryRunner.getTable(table);
}

import type { DataSource } from 'typeorm';

/**
 * Empties every table of the database except TypeORM's `migrations` (so the tables of later
 * migrations, and the application's own, are emptied too), so that one application can serve the
 * next test as a new one would: PostgreSQL in one TRUNCATE (identities restarted), SQLite by
 * DELETE with its foreign-key checks off meanwhile.
 */
export async function emptyTables(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type === 'postgres') {
    const tables: { name: string }[] = await dataSource.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'migrations'`);
    if (tables.length > 0) await dataSource.query(`TRUNCATE ${tables.map(({ name }) => `"${name}"`).join(', ')} RESTART IDENTITY CASCADE`);
    return;
  }
  const tables: { name: string }[] = await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'migrations' AND name NOT LIKE 'sqlite_%'`);
  await dataSource.query('PRAGMA foreign_keys = OFF');
  try {
    for (const { name } of tables) await dataSource.query(`DELETE FROM "${name}"`);
  } finally {
    await dataSource.query('PRAGMA foreign_keys = ON');
  }
}

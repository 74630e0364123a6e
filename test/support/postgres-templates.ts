import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DataSource, type MigrationInterface } from 'typeorm';
import { POSTGRES_ADMIN, postgresUrl } from './postgres-admin.js';

/** TypeORM migration classes, in the order they run. */
export type MigrationClasses = readonly (new () => MigrationInterface)[];

const LIBRARY_MIGRATIONS = fileURLToPath(new URL('../../libs/auth/src/migrations', import.meta.url));

const templates = new Map<string, Promise<string>>();

/**
 * The name of a PostgreSQL database migrated once with `migrations`, which test databases are
 * copied from (`CREATE DATABASE ... TEMPLATE`): a copy costs what an empty database does, and the
 * application's `migrationsRun` then finds nothing to do. The name carries a hash of the
 * migrations' names and source (and of the library's migrations folder), so a changed migration
 * gets a new template; an advisory lock lets one process (of this run, or of another run on the
 * same server) build it while the others wait.
 */
export function migratedTemplate(migrations: MigrationClasses): Promise<string> {
  const hash = createHash('sha256');
  for (const migration of migrations) hash.update(`${migration.name}\0${String(migration)}\0`);
  // The library's migrations call helpers of their folder (column types): their source counts too.
  for (const file of readdirSync(LIBRARY_MIGRATIONS).sort()) hash.update(`${file}\0${readFileSync(join(LIBRARY_MIGRATIONS, file), 'utf8')}\0`);
  const name = `svc_template_${hash.digest('hex').slice(0, 20)}`;
  let template = templates.get(name);
  if (!template) {
    template = buildOnce(name, migrations);
    templates.set(name, template);
  }
  return template;
}

async function buildOnce(name: string, migrations: MigrationClasses): Promise<string> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount === 0) {
      // Built under another name and renamed when complete: a template never exists half-migrated.
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const dataSource = new DataSource({ type: 'postgres', url: postgresUrl(building), migrations: [...migrations], logging: false });
      await dataSource.initialize();
      try {
        await dataSource.runMigrations();
      } finally {
        await dataSource.destroy();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      // Nobody connects to it, so a copy never fails with "being accessed by other users".
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    await admin.end();
  }
}

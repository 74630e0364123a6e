import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { POSTGRES_ADMIN, postgresUrl } from './postgres-admin.js';
import { type MigrationClasses, migratedTemplate } from './postgres-templates.js';

export type Engine = 'sqlite' | 'postgres';

let postgresReachable: Promise<boolean> | undefined;

/** Whether PostgreSQL answers; when it does not, REQUIRE_POSTGRES=1 makes that a failure. */
export function canUsePostgres(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      if (process.env.REQUIRE_POSTGRES === '1') throw new Error('PostgreSQL is required (REQUIRE_POSTGRES=1) but unreachable');
      console.warn('!!! PostgreSQL unreachable: PostgreSQL variants of this suite are SKIPPED !!!');
      return false;
    }
  })();
  return postgresReachable;
}

/**
 * The engines a suite runs against (use with top-level await). PostgreSQL is left out, loudly,
 * when it is unreachable and not required.
 */
export async function availableEngines(): Promise<Engine[]> {
  return (await canUsePostgres()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh database for one test app: an in-memory SQLite, or a new PostgreSQL database. Given the
 * app's `migrations`, the PostgreSQL database is a copy of a template already migrated with them
 * (see `migratedTemplate`); else it is empty. Its commits do not wait for the disk
 * (`synchronous_commit = off`: a crash may lose the last commits, which a test database can afford;
 * the rows' visibility and locking are unchanged).
 */
export async function freshDatabase(engine: Engine, migrations?: MigrationClasses): Promise<{ options: DataSourceOptions; drop: () => Promise<void> }> {
  if (engine === 'sqlite') {
    return { options: { type: 'better-sqlite3', database: ':memory:' }, drop: async () => undefined };
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const template = migrations ? await migratedTemplate(migrations) : undefined;
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`, `ALTER DATABASE ${name} SET synchronous_commit = off`);
  return {
    options: { type: 'postgres', url: postgresUrl(name), poolSize: 10 },
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

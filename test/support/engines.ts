import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { POSTGRES_ADMIN, postgresUrl } from './postgres-admin.js';
import { type MigrationClasses, migratedTemplate } from './postgres-templates.js';

export type Engine = 'sqlite' | 'postgres';

const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

/**
 * The engines the run may use: `SVC_TEST_ENGINES` (a comma-separated list, `npm run test:quick`
 * sets `sqlite`), else both. Naming PostgreSQL out while REQUIRE_POSTGRES=1 asks for it is a
 * contradiction, refused rather than guessed at.
 */
export function selectedEngines(env: NodeJS.ProcessEnv = process.env): Engine[] {
  const raw = env.SVC_TEST_ENGINES;
  if (raw === undefined || raw.trim() === '') return [...ENGINES];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(ENGINES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) throw new TypeError(`SVC_TEST_ENGINES must list engines among ${ENGINES.join(', ')}, got ${JSON.stringify(raw)}`);
  const engines = ENGINES.filter((engine) => names.includes(engine));
  if (!engines.includes('postgres') && env.REQUIRE_POSTGRES === '1') {
    throw new TypeError(`SVC_TEST_ENGINES=${raw} leaves PostgreSQL out while REQUIRE_POSTGRES=1 requires it: unset one of them`);
  }
  return engines;
}

let postgresReachable: Promise<boolean> | undefined;

/**
 * Whether the run uses PostgreSQL: it is among `selectedEngines()` and answers; when it does not
 * answer, REQUIRE_POSTGRES=1 makes that a failure.
 */
export function canUsePostgres(): Promise<boolean> {
  postgresReachable ??= (async () => {
    if (!selectedEngines().includes('postgres')) return false;
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
 * The engines an engine-specific suite runs against (use with top-level await): the selected ones,
 * PostgreSQL left out, loudly, when it is unreachable and not required. Behaviour that is not
 * engine-specific runs on `BEHAVIOUR_ENGINES` instead.
 */
export async function availableEngines(): Promise<Engine[]> {
  const postgres = await canUsePostgres();
  return selectedEngines().filter((engine) => engine !== 'postgres' || postgres);
}

/**
 * The engines of behaviour tests: SQLite alone, whatever `SVC_TEST_ENGINES` says (an in-memory
 * database, always there).
 *
 * The rule of the suite's pyramid: a test runs on every engine of `availableEngines()` when it
 * exercises the database's own behaviour: transactions and their rollback, row locks, unique
 * constraints under concurrent requests, atomic counters, races, migrations and schema,
 * LISTEN/NOTIFY, purges, the rate-limit storage conformance suite, and one representative flow for
 * each raw-SQL statement of the stores (`SessionStore`, `RefreshFamilyStore`). Everything else (HTTP
 * rules, input validation, hooks and events, error bodies, configuration and startup, provider
 * flows, passkey and TOTP ceremonies, the shape of lists) is the library's behaviour whatever the
 * engine: it runs once, on these.
 */
export const BEHAVIOUR_ENGINES: readonly Engine[] = ['sqlite'];

/**
 * For a describe over `availableEngines()` that holds both kinds of test (see `BEHAVIOUR_ENGINES`):
 * `declare` (Jest's `it`) where `engine` is a behaviour engine, and elsewhere a declaration that
 * declares nothing, so that the describe's behaviour tests run once while its engine-specific ones
 * run on every engine. `const behaviourIt = behaviourOnly(engine, it);`
 */
export function behaviourOnly<Declare extends (...args: never[]) => unknown>(engine: Engine, declare: Declare): Declare {
  return (BEHAVIOUR_ENGINES.includes(engine) ? declare : () => undefined) as Declare;
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

import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { type Engine, freshDatabase } from './engines.js';

/** Undoes the executed migrations, newest first, down to and including `name`: the schema as it was before it. */
export async function undoThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last]: { name: string }[] = await dataSource.query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
    if (!last) throw new Error(`${name} was never run`);
    await dataSource.undoLastMigration();
    if (last.name === name) return;
  }
}

/** The tables, and each table's columns, defaults, indexes and constraints, as the engine describes them. */
export async function schemaOf(dataSource: DataSource, engine: Engine): Promise<Record<string, unknown>> {
  if (engine === 'postgres') {
    const columns = await dataSource.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'migrations' ORDER BY table_name, column_name`,
    );
    const indexes = await dataSource.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename, indexname`);
    const constraints = await dataSource.query(`SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY conname`);
    return { columns, indexes, constraints };
  }
  const tables: { name: string; sql: string }[] = await dataSource.query(`SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' AND tbl_name <> 'migrations' ORDER BY name`);
  return { tables };
}

/** A fresh database at the schema just before one migration, for tests of that migration's up and down. */
export interface DatabaseBeforeMigration {
  dataSource: DataSource;
  /** `schemaOf` before the migration: what its down must give back. */
  before: Record<string, unknown>;
  /** `count` statement placeholders, as the engine writes them (`$1, $2` or `?, ?`). */
  parameters(count: number): string;
  /** Users with these ids, emailed `user<index>@x.io`, with a password hash. */
  insertUsers(ids: readonly string[]): Promise<void>;
  /** A session row of `userId`, live until 2030. */
  insertSession(id: string, userId: string): Promise<void>;
  close(): Promise<void>;
}

/** Every migration run (on PostgreSQL, a copy of the template migrated with them), then undone down to and including `name`. */
export async function databaseBeforeMigration(engine: Engine, name: string): Promise<DatabaseBeforeMigration> {
  const database = await freshDatabase(engine, authMigrations);
  const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
  const close = async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  };
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    await undoThrough(dataSource, name);
    const before = await schemaOf(dataSource, engine);
    const parameters = (count: number) => Array.from({ length: count }, (_, i) => (engine === 'postgres' ? `$${i + 1}` : '?')).join(', ');
    const insertUsers = async (ids: readonly string[]) => {
      for (const [i, id] of ids.entries()) {
        await dataSource.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES (${parameters(4)})`, [id, `user${i}@x.io`, `user${i}@x.io`, '$2b$10$abcdefghijklmnopqrstuu']);
      }
    };
    const insertSession = async (id: string, userId: string) => {
      await dataSource.query(`INSERT INTO sessions (id, token_hash, user_id, expires_at, last_seen_at) VALUES (${parameters(5)})`, [id, 'a'.repeat(64), userId, '2030-01-01 00:00:00', '2026-01-01 00:00:00']);
    };
    return { dataSource, before, parameters, insertUsers, insertSession, close };
  } catch (error) {
    await close();
    throw error;
  }
}

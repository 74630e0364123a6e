import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { availableEngines, type Engine, freshDatabase } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcEmailLifecycle1764000000300';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

/** The tables, and each table's columns and indexes, as the engine describes them. */
async function schemaOf(dataSource: DataSource, engine: Engine): Promise<Record<string, unknown>> {
  if (engine === 'postgres') {
    const columns = await dataSource.query(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'migrations' ORDER BY table_name, column_name`,
    );
    const indexes = await dataSource.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename, indexname`);
    return { columns, indexes };
  }
  const tables: { name: string; sql: string }[] = await dataSource.query(`SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' AND tbl_name <> 'migrations' ORDER BY name`);
  return { tables };
}

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users`, (engine) => {
  it('adds users.email_verified_at (null for everyone) and email_tokens; down restores the schema and keeps the users and their sessions', async () => {
    const database = await freshDatabase(engine);
    const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
    await dataSource.initialize();
    const parameters = (count: number) => Array.from({ length: count }, (_, i) => (engine === 'postgres' ? `$${i + 1}` : '?')).join(', ');
    try {
      await dataSource.runMigrations();
      await undoThrough(dataSource, MIGRATION);
      const before = await schemaOf(dataSource, engine);
      for (const [i, id] of USERS.entries()) {
        await dataSource.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES (${parameters(4)})`, [id, `user${i}@x.io`, `user${i}@x.io`, '$2b$10$abcdefghijklmnopqrstuu']);
      }
      await dataSource.query(`INSERT INTO sessions (id, token_hash, user_id, expires_at, last_seen_at) VALUES (${parameters(5)})`, [
        '00000000-0000-4000-8000-0000000000aa',
        'a'.repeat(64),
        USERS[0],
        '2030-01-01 00:00:00',
        '2026-01-01 00:00:00',
      ]);

      await dataSource.runMigrations();
      expect(await dataSource.query('SELECT id, email, email_verified_at FROM users ORDER BY id')).toEqual(USERS.map((id, i) => ({ id, email: `user${i}@x.io`, email_verified_at: null })));
      expect(await dataSource.query('SELECT user_id FROM sessions')).toEqual([{ user_id: USERS[0] }]);
      await dataSource.query(`INSERT INTO email_tokens (id, token_hash, user_id, purpose, new_email, requested_by, expires_at) VALUES (${parameters(7)})`, [
        '00000000-0000-4000-8000-0000000000bb',
        'b'.repeat(64),
        USERS[1],
        'change',
        'new@x.io',
        '00000000-0000-4000-8000-0000000000aa',
        '2030-01-01 00:00:00',
      ]);
      // Its token hash is unique, and a user's tokens go with the user.
      await expect(
        dataSource.query(`INSERT INTO email_tokens (id, token_hash, user_id, purpose, expires_at) VALUES (${parameters(5)})`, ['00000000-0000-4000-8000-0000000000cc', 'b'.repeat(64), USERS[0], 'verify', '2030-01-01 00:00:00']),
      ).rejects.toThrow();
      await dataSource.query(`DELETE FROM users WHERE id = ${parameters(1)}`, [USERS[1]]);
      expect(await dataSource.query('SELECT id FROM email_tokens')).toEqual([]);

      await undoThrough(dataSource, MIGRATION);
      expect(await schemaOf(dataSource, engine)).toEqual(before);
      expect(await dataSource.query('SELECT id, email FROM users')).toEqual([{ id: USERS[0], email: 'user0@x.io' }]);
      expect(await dataSource.query('SELECT user_id FROM sessions')).toEqual([{ user_id: USERS[0] }]);

      // And up once more, on the restored schema.
      await dataSource.runMigrations();
      expect(await dataSource.query('SELECT email_verified_at FROM users')).toEqual([{ email_verified_at: null }]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});

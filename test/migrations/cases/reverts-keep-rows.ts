import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { availableEngines, freshDatabase } from '../../support/engines.js';

const ENGINES = await availableEngines();
const USER = '00000000-0000-4000-8000-000000000001';
const SESSION = '00000000-0000-4000-8000-0000000000aa';

describe.each(ENGINES)("svc's migrations reverted one by one on %s, on a database with a user and a session (docs/decisions/0002-schema.md)", (engine) => {
  it('each down but the initial schema\'s keeps the user and the session', async () => {
    const database = await freshDatabase(engine);
    const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
    try {
      await dataSource.initialize();
      await dataSource.runMigrations();
      const p = (i: number) => (engine === 'postgres' ? `$${i}` : '?');
      await dataSource.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [USER, 'ada@example.com', 'ada@example.com', '$2b$10$abcdefghijklmnopqrstuu']);
      await dataSource.query(`INSERT INTO sessions (id, token_hash, user_id, expires_at, last_seen_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`, [SESSION, 'a'.repeat(64), USER, '2030-01-01 00:00:00', '2026-01-01 00:00:00']);

      const kept: Record<string, unknown> = {};
      for (const { name } of [...authMigrations].reverse().slice(0, -1)) {
        await dataSource.undoLastMigration();
        kept[name] = { users: await dataSource.query('SELECT id FROM users'), sessions: await dataSource.query('SELECT id, user_id FROM sessions') };
      }
      const whole = { users: [{ id: USER }], sessions: [{ id: SESSION, user_id: USER }] };
      expect(kept).toEqual(Object.fromEntries(Object.keys(kept).map((name) => [name, whole])));
      expect(await dataSource.query('SELECT name FROM migrations')).toEqual([{ name: 'SvcInitialSchema1763700000000' }]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    }
  });
});

import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { availableEngines, type Engine, freshDatabase } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcPasskeys1764000000600';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
const PASSKEYS = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];

/** The tables, and each table's columns and indexes, as the engine describes them. */
async function schemaOf(dataSource: DataSource, engine: Engine): Promise<Record<string, unknown>> {
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

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users`, (engine) => {
  it('adds passkeys (credential id unique, a uint32 counter, rows going with their user) and passkey_used_challenges; down restores the schema and keeps the users', async () => {
    const database = await freshDatabase(engine);
    const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
    await dataSource.initialize();
    const parameters = (count: number) => Array.from({ length: count }, (_, i) => (engine === 'postgres' ? `$${i + 1}` : '?')).join(', ');
    const insertPasskey = (id: string, userId: string, credentialId: string, counter: number) =>
      dataSource.query(`INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, device_type, backed_up, name) VALUES (${parameters(9)})`, [
        id,
        userId,
        credentialId,
        'pQECAyYgASFYIA',
        counter,
        'internal,hybrid',
        'multiDevice',
        engine === 'postgres' ? true : 1,
        'Phone',
      ]);
    try {
      await dataSource.runMigrations();
      await undoThrough(dataSource, MIGRATION);
      const before = await schemaOf(dataSource, engine);
      for (const [i, id] of USERS.entries()) {
        await dataSource.query(`INSERT INTO users (id, email, email_skeleton, password_hash) VALUES (${parameters(4)})`, [id, `user${i}@x.io`, `user${i}@x.io`, '$2b$10$abcdefghijklmnopqrstuu']);
      }

      await dataSource.runMigrations();
      expect(await dataSource.query('SELECT id, email FROM users ORDER BY id')).toEqual(USERS.map((id, i) => ({ id, email: `user${i}@x.io` })));
      // The largest counter an authenticator reports (WebAuthn L2 §6.1: 32 bits unsigned) fits.
      await insertPasskey(PASSKEYS[0], USERS[0], 'Y3JlZGVudGlhbC0x', 4_294_967_295);
      await insertPasskey(PASSKEYS[1], USERS[1], 'Y3JlZGVudGlhbC0y', 0);
      const [row] = await dataSource.query(`SELECT counter, last_used_at, created_at FROM passkeys WHERE id = ${parameters(1)}`, [PASSKEYS[0]]);
      expect(Number(row.counter)).toBe(4_294_967_295);
      expect(row.last_used_at).toBeNull();
      expect(row.created_at).not.toBeNull();
      // A credential id is registered once, to one user.
      await expect(insertPasskey('00000000-0000-4000-8000-0000000000a3', USERS[1], 'Y3JlZGVudGlhbC0x', 0)).rejects.toThrow();
      // A user's passkeys go with the user.
      await dataSource.query(`DELETE FROM users WHERE id = ${parameters(1)}`, [USERS[1]]);
      expect(await dataSource.query('SELECT id FROM passkeys')).toEqual([{ id: PASSKEYS[0] }]);
      await dataSource.query(`INSERT INTO passkey_used_challenges (challenge_hash, expires_at) VALUES (${parameters(2)})`, ['c'.repeat(64), '2030-01-01 00:00:00']);
      await expect(dataSource.query(`INSERT INTO passkey_used_challenges (challenge_hash, expires_at) VALUES (${parameters(2)})`, ['c'.repeat(64), '2030-01-01 00:00:00'])).rejects.toThrow();

      await undoThrough(dataSource, MIGRATION);
      expect(await schemaOf(dataSource, engine)).toEqual(before);
      expect(await dataSource.query('SELECT id, email FROM users')).toEqual([{ id: USERS[0], email: 'user0@x.io' }]);

      // And up once more, on the restored schema.
      await dataSource.runMigrations();
      expect(await dataSource.query('SELECT id FROM passkeys')).toEqual([]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});

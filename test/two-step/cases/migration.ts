import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { availableEngines, type Engine, freshDatabase } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';
import { boolOf } from '../two-step-kit.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcMfaTotp1764000000500';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

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

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users (README, "Two-step login")`, (engine) => {
  it('adds users.mfa_totp_enabled (false for everyone), mfa_totp and mfa_recovery_codes; down restores the schema and keeps the users and their sessions', async () => {
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
      const users = await dataSource.query('SELECT id, mfa_totp_enabled FROM users ORDER BY id');
      expect(users.map((row: Record<string, unknown>) => [row.id, boolOf(row.mfa_totp_enabled)])).toEqual(USERS.map((id) => [id, false]));
      expect(await dataSource.query('SELECT user_id FROM sessions')).toEqual([{ user_id: USERS[0] }]);
      await dataSource.query(`INSERT INTO mfa_totp (user_id, secret_ciphertext, key_id) VALUES (${parameters(3)})`, [USERS[1], 'c'.repeat(64), 'f'.repeat(16)]);
      await dataSource.query(`INSERT INTO mfa_recovery_codes (id, user_id, code_hash) VALUES (${parameters(3)})`, ['00000000-0000-4000-8000-0000000000bb', USERS[1], 'b'.repeat(64)]);
      // One secret a user; a code hash is unique; a user's rows go with the user.
      await expect(dataSource.query(`INSERT INTO mfa_totp (user_id, secret_ciphertext, key_id) VALUES (${parameters(3)})`, [USERS[1], 'd'.repeat(64), 'f'.repeat(16)])).rejects.toThrow();
      await expect(dataSource.query(`INSERT INTO mfa_recovery_codes (id, user_id, code_hash) VALUES (${parameters(3)})`, ['00000000-0000-4000-8000-0000000000cc', USERS[0], 'b'.repeat(64)])).rejects.toThrow();
      await dataSource.query(`DELETE FROM users WHERE id = ${parameters(1)}`, [USERS[1]]);
      expect(await dataSource.query('SELECT user_id FROM mfa_totp')).toEqual([]);
      expect(await dataSource.query('SELECT id FROM mfa_recovery_codes')).toEqual([]);
      await dataSource.query(`INSERT INTO mfa_totp (user_id, secret_ciphertext, key_id, last_used_step) VALUES (${parameters(4)})`, [USERS[0], 'e'.repeat(64), 'f'.repeat(16), 59_000_000]);

      await undoThrough(dataSource, MIGRATION);
      expect(await schemaOf(dataSource, engine)).toEqual(before);
      expect(await dataSource.query('SELECT id, email FROM users')).toEqual([{ id: USERS[0], email: 'user0@x.io' }]);
      expect(await dataSource.query('SELECT user_id FROM sessions')).toEqual([{ user_id: USERS[0] }]);

      // And up once more, on the restored schema.
      await dataSource.runMigrations();
      expect((await dataSource.query('SELECT mfa_totp_enabled FROM users')).map((row: Record<string, unknown>) => boolOf(row.mfa_totp_enabled))).toEqual([false]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});

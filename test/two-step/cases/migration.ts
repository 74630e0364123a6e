import { describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { databaseBeforeMigration, schemaOf, undoThrough } from '../../support/migrations.js';
import { boolOf } from '../two-step-kit.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcMfaTotp1764000000500';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users (docs/guides/two-step.md)`, (engine) => {
  it('adds users.mfa_totp_enabled (false for everyone), mfa_totp and mfa_recovery_codes; down restores the schema and keeps the users and their sessions', async () => {
    const database = await databaseBeforeMigration(engine, MIGRATION);
    const { dataSource, before, parameters } = database;
    try {
      await database.insertUsers(USERS);
      await database.insertSession('00000000-0000-4000-8000-0000000000aa', USERS[0]);

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
      await database.close();
    }
  });
});

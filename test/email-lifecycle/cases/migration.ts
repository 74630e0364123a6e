import { describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { databaseBeforeMigration, schemaOf, undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcEmailLifecycle1764000000300';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users`, (engine) => {
  it('adds users.email_verified_at (null for everyone) and email_tokens; down restores the schema and keeps the users and their sessions', async () => {
    const database = await databaseBeforeMigration(engine, MIGRATION);
    const { dataSource, before, parameters } = database;
    try {
      await database.insertUsers(USERS);
      await database.insertSession('00000000-0000-4000-8000-0000000000aa', USERS[0]);

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
      await database.close();
    }
  });
});

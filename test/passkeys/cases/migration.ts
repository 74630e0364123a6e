import { describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { databaseBeforeMigration, schemaOf, undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcPasskeys1764000000600';
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
const PASSKEYS = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with users`, (engine) => {
  it('adds passkeys (credential id unique, a uint32 counter, rows going with their user) and passkey_used_challenges; down restores the schema and keeps the users', async () => {
    const database = await databaseBeforeMigration(engine, MIGRATION);
    const { dataSource, before, parameters } = database;
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
      await database.insertUsers(USERS);

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
      await database.close();
    }
  });
});

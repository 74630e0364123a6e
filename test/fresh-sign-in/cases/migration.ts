import { describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { databaseBeforeMigration, schemaOf, undoThrough } from '../../support/migrations.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcAuthTime1764000000900';
const USERS = ['00000000-0000-4000-8000-000000000001'];
const SESSION = '00000000-0000-4000-8000-0000000000b1';
const FAMILY = '00000000-0000-4000-8000-0000000000c1';

describe.each(ENGINES)(`migration ${MIGRATION} on %s, on a database with credentials`, (engine) => {
  it("dates every existing session and refresh family's sign-in at its creation; down restores the schema and keeps the rows", async () => {
    const database = await databaseBeforeMigration(engine, MIGRATION);
    const { dataSource, before, parameters } = database;
    const time = (value: unknown) => new Date(engine === 'sqlite' ? `${String(value).replace(' ', 'T')}Z` : (value as Date)).getTime();
    try {
      await database.insertUsers(USERS);
      await database.insertSession(SESSION, USERS[0]);
      await dataSource.query(`INSERT INTO refresh_families (id, user_id, created_at, last_used_at, expires_at) VALUES (${parameters(5)})`, [FAMILY, USERS[0], '2026-01-02 03:04:05', '2026-01-03 00:00:00', '2030-01-01 00:00:00']);

      await dataSource.runMigrations();
      const [session] = await dataSource.query(`SELECT auth_time, created_at FROM sessions WHERE id = ${parameters(1)}`, [SESSION]);
      expect(session.auth_time).not.toBeNull();
      expect(time(session.auth_time)).toBe(time(session.created_at));
      const [family] = await dataSource.query(`SELECT auth_time FROM refresh_families WHERE id = ${parameters(1)}`, [FAMILY]);
      expect(time(family.auth_time)).toBe(time(engine === 'sqlite' ? '2026-01-02 03:04:05' : new Date('2026-01-02T03:04:05Z')));

      await undoThrough(dataSource, MIGRATION);
      expect(await schemaOf(dataSource, engine)).toEqual(before);
      expect(await dataSource.query('SELECT id FROM sessions')).toEqual([{ id: SESSION }]);
      expect(await dataSource.query('SELECT id FROM refresh_families')).toEqual([{ id: FAMILY }]);
    } finally {
      await database.close();
    }
  });
});

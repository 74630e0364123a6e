import { describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { databaseBeforeMigration, schemaOf, undoThrough } from '../../support/migrations.js';

// docs/decisions/0029-activity-log.md: auth_audit_events has no foreign key (an entry outlives its
// account) and the indexes its lists read; down gives the schema back.
const ENGINES = await availableEngines();
const MIGRATION = 'SvcAuditEvents1764000001000';
const USER = '00000000-0000-4000-8000-000000000001';

describe.each(ENGINES)(`migration ${MIGRATION} on %s`, (engine) => {
  it('adds auth_audit_events whose entries outlive their user; down restores the schema', async () => {
    const database = await databaseBeforeMigration(engine, MIGRATION);
    const { dataSource, before, parameters } = database;
    try {
      await database.insertUsers([USER]);
      await dataSource.runMigrations();
      await dataSource.query(`INSERT INTO auth_audit_events (id, at, user_id, actor_id, action, ip, user_agent) VALUES (${parameters(7)})`, [
        '00000000-0000-4000-8000-0000000000e1',
        '2026-11-21 10:00:00',
        USER,
        null,
        'login',
        '203.0.113.0',
        'Firefox',
      ]);
      await dataSource.query(`DELETE FROM users WHERE id = ${parameters(1)}`, [USER]);
      expect(await dataSource.query('SELECT user_id, action, details FROM auth_audit_events')).toEqual([{ user_id: USER, action: 'login', details: '{}' }]);
      const indexes: { name: string }[] =
        engine === 'postgres'
          ? await dataSource.query(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'auth_audit_events' AND indexname LIKE 'ix_%' ORDER BY indexname`)
          : await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'auth_audit_events' AND name LIKE 'ix_%' ORDER BY name`);
      expect(indexes.map((index) => index.name)).toEqual(['ix_auth_audit_events_action_at', 'ix_auth_audit_events_at', 'ix_auth_audit_events_user_at']);

      await undoThrough(dataSource, MIGRATION);
      expect(await schemaOf(dataSource, engine)).toEqual(before);
      await dataSource.runMigrations();
      expect(await dataSource.query('SELECT id FROM auth_audit_events')).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, AuthService } from '#svc/auth';
import { availableEngines } from '../../support/engines.js';
import { type AuditApp, createAuditApp } from '../audit-kit.js';

// docs/decisions/0029-activity-log.md: an entry is written in the transaction of its change, so a
// change that fails after the entry was written leaves none (and a committed change always has it).
const ENGINES = await availableEngines();

/** Makes every INSERT into `table` fail inside the database, as a full disk or a broken constraint would. */
async function refuseInserts(t: AuditApp, table: string): Promise<() => Promise<void>> {
  if (t.dataSource.options.type === 'postgres') {
    await t.dataSource.query(`CREATE FUNCTION audit_suite_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
    await t.dataSource.query(`CREATE TRIGGER audit_suite_refuse BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION audit_suite_refuse()`);
    return async () => {
      await t.dataSource.query(`DROP TRIGGER audit_suite_refuse ON ${table}`);
      await t.dataSource.query('DROP FUNCTION audit_suite_refuse()');
    };
  }
  await t.dataSource.query(`CREATE TRIGGER audit_suite_refuse BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  return async () => void (await t.dataSource.query('DROP TRIGGER audit_suite_refuse'));
}

describe.each(ENGINES)('entries and their changes commit together on %s', (engine) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, 'session');
  });
  afterAll(() => t?.close());

  it('a login whose session cannot be stored (500) leaves no login entry and no notice; the next one has its entry', async () => {
    const phone = t.device('192.0.2.44', 'Phone');
    const userId = await phone.signedUp('rollback@example.io');
    await t.afterResponses();
    const before = await t.auditRows();
    const laptop = t.device('198.51.100.20', 'Laptop');
    const restore = await refuseInserts(t, 'sessions');
    try {
      const refused = await laptop.login('rollback@example.io');
      expect(refused.status).toBe(500);
      expect(refused.body.code).toBe('INTERNAL_ERROR');
    } finally {
      await restore();
    }
    await t.afterResponses();
    expect(await t.auditRows()).toEqual(before);
    expect(t.events.payloadsOf(AuthEvent.SecurityNotice)).toEqual([]);

    expect((await laptop.login('rollback@example.io')).status).toBe(200);
    await t.afterResponses();
    expect((await t.auditRows()).filter((row) => row.user_id === userId).map((row) => row.action)).toEqual(['login', 'login']);
  });

  it('a role grant whose entry cannot be written fails whole: no change without its entry', async () => {
    const admin = t.device('198.51.100.7', 'Admin');
    const adminId = await admin.signedUp('admin.rollback@example.io');
    await t.app.get(AuthService).grantRole(adminId, 'admin');
    const userId = await t.device().signedUp('grantee@example.io');
    await t.afterResponses();
    const before = await t.auditRows();
    // The role row is written first, then its entry: refusing the entry rolls the grant back.
    const restore = await refuseInserts(t, 'auth_audit_events');
    try {
      expect((await admin.send('post', `/auth/admin/users/${userId}/roles`, { role: 'auditor' })).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await t.auditRows()).toEqual(before);
    expect(await t.dataSource.query(`SELECT role FROM user_roles WHERE user_id = '${userId}' AND role = 'auditor'`)).toEqual([]);
  });
});

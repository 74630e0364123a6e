import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthConfigError, AuthEvent, AuthService } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AuditApp, createAuditApp } from '../audit-kit.js';

// docs/guides/account-security.md: without the audit section nothing is written, no notice is sent,
// the routes do not exist and the purge says nothing of the log; a bad section stops startup.
describe.each(BEHAVIOUR_ENGINES)('without the audit section, on %s', (engine) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, 'session', { audit: undefined });
  });
  afterAll(() => t?.close());

  it('writes nothing, announces no new device, and has no activity routes (404 NOT_FOUND)', async () => {
    const laptop = t.device('203.0.113.10', 'Laptop');
    const userId = await laptop.signedUp('plain@example.io');
    await t.app.get(AuthService).grantRole(userId, 'admin');
    expect((await laptop.login('plain@example.io', 'not the password')).status).toBe(401);
    expect((await t.device('192.0.2.1', 'Phone').login('plain@example.io')).status).toBe(200);
    expect((await laptop.send('post', '/auth/logout')).status).toBe(204);
    await t.afterResponses();
    expect(await t.auditRows()).toEqual([]);
    expect(t.events.payloadsOf(AuthEvent.SecurityNotice)).toEqual([]);
    const phone = t.device('192.0.2.1', 'Phone');
    expect((await phone.login('plain@example.io')).status).toBe(200);
    for (const path of ['/auth/me/activity', '/auth/admin/audit']) {
      const missing = await phone.send('get', path);
      expect([path, missing.status, missing.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect(Object.keys(await t.app.get(AuthService).purgeExpired())).not.toContain('auditEvents');
  });
});

describe('the audit section at startup', () => {
  it('stops startup with a retention outside 1..3650 days, or an unknown option', async () => {
    await expect(createAuditApp('sqlite', 'session', { audit: { retentionDays: 0 } })).rejects.toThrow(new AuthConfigError('audit.retentionDays', 'must be between 1 and 3650', 0));
    await expect(createAuditApp('sqlite', 'session', { audit: { retentionDays: 36.5 } })).rejects.toThrow(/audit\.retentionDays must be an integer/);
    await expect(createAuditApp('sqlite', 'session', { audit: { keepDays: 3 } as never })).rejects.toThrow(/audit\.keepDays is not an option/);
  });

  it('with the admin section, stops startup when no role grants audit:read (GET /admin/audit needs it)', async () => {
    await expect(createAuditApp('sqlite', 'session', { authorization: { roles: { admin: ['users:*'] } } })).rejects.toThrow(/does not define the permission "audit:read"/);
  });

  it('mounts GET /me/activity without the admin section, and no GET /admin/audit', async () => {
    const t = await createAuditApp('sqlite', 'session', { admin: undefined });
    try {
      const device = t.device();
      await device.signedUp('solo@example.io');
      expect((await device.activity()).status).toBe(200);
      expect((await device.send('get', '/auth/admin/audit')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

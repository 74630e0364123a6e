import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthService } from '#svc/auth';
import { availableEngines } from '../../support/engines.js';
import { type AuditApp, createAuditApp, DAY_MS } from '../audit-kit.js';

// docs/guides/account-security.md, "Retention": the purge deletes the entries older than
// audit.retentionDays, on the injected clock.
const ENGINES = await availableEngines();

describe.each(ENGINES)('the retention of the activity log on %s', (engine) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, 'session', { audit: { retentionDays: 30 } });
  });
  afterAll(() => t?.close());

  it('purgeExpired deletes the entries older than retentionDays and keeps the others', async () => {
    const device = t.device();
    const userId = await device.signedUp('old@example.io');
    t.clock.advance(20 * DAY_MS);
    expect((await device.login('old@example.io')).status).toBe(200);
    const auth = t.app.get(AuthService);
    t.clock.advance(9 * DAY_MS);
    expect((await auth.purgeExpired()).auditEvents).toBe(0);
    // 31 days after the signup's entry, 11 after the login's.
    t.clock.advance(2 * DAY_MS);
    expect((await auth.purgeExpired()).auditEvents).toBe(1);
    expect((await t.auditRows()).map((row) => [row.user_id, row.action, row.details])).toEqual([[userId, 'login', { method: 'password' }]]);
    expect((await auth.purgeExpired()).auditEvents).toBe(0);
  });
});

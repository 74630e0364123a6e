import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AuthService } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { type AuditApp, createAuditApp, type Device, SAFARI } from '../audit-kit.js';

// docs/guides/account-security.md, "Activity log": GET /admin/audit for holders of audit:read, newest
// first, filtered by user and action, paged by a signed cursor bound to its filters. The paging runs
// on every engine: its keyset compares the row value (at, id) with the database's own text of a
// timestamp, which the cursor carries back; the rest is behaviour, on SQLite.
const ENGINES = await availableEngines();

interface Page {
  events: { action: string; at: string; userId: string | null; actorId: string | null; ip: string | null; userAgent: string | null; details?: Record<string, unknown> }[];
  nextCursor: string | null;
}

describe.each(ENGINES)("the administrator's activity list on %s", (engine) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: AuditApp;
  let admin: Device;
  let adminId: string;
  let aliceId: string;
  let bobId: string;

  beforeAll(async () => {
    t = await createAuditApp(engine, 'session');
  });
  beforeEach(async () => {
    await t.reset();
    admin = t.device('198.51.100.7', SAFARI);
    adminId = await admin.signedUp('root@example.io');
    await t.app.get(AuthService).grantRole(adminId, 'admin');
    const alice = t.device();
    aliceId = await alice.signedUp('alice@example.io');
    const bob = t.device('192.0.2.3');
    bobId = await bob.signedUp('bob@example.io');
    // Six failed logins, alternating, a second apart: known instants, newest last.
    for (let i = 0; i < 6; i++) {
      t.clock.advance(1000);
      expect((await (i % 2 === 0 ? alice : bob).login(i % 2 === 0 ? 'alice@example.io' : 'bob@example.io', 'not the password!')).status).toBe(401);
      await t.afterResponses();
    }
    t.clock.advance(1000);
    expect((await admin.send('post', `/auth/admin/users/${aliceId}/deactivate`, { reason: 'spam' })).status).toBe(204);
  });
  afterAll(() => t?.close());

  const list = async (query = ''): Promise<Page> => {
    const response = await admin.send('get', `/auth/admin/audit${query}`);
    expect(response.status).toBe(200);
    return response.body as Page;
  };

  behaviourIt('lists every entry newest first, with who it is about, who acted and its details', async () => {
    const page = await list();
    expect(page.nextCursor).toBeNull();
    expect(page.events).toHaveLength(11);
    expect(page.events[0]).toEqual({ action: 'user_deactivated', at: t.clock.now().toISOString(), ip: '198.51.100.0', userAgent: SAFARI, userId: aliceId, actorId: adminId, details: { reason: 'spam' } });
    expect(page.events[1]).toEqual(expect.objectContaining({ action: 'login_failed', userId: bobId, actorId: null, details: { reason: 'bad_password' } }));
    const ats = page.events.map((event) => event.at);
    expect([...ats].sort().reverse()).toEqual(ats);
  });

  it('filters by user and by action, and pages through them with the cursor', async () => {
    expect((await list(`?userId=${aliceId}`)).events.map((event) => event.action)).toEqual(['user_deactivated', 'login_failed', 'login_failed', 'login_failed', 'login']);
    expect((await list(`?userId=${aliceId.toUpperCase()}&action=login_failed`)).events.every((event) => event.userId === aliceId && event.action === 'login_failed')).toBe(true);
    const seen: string[] = [];
    let page = await list('?action=login_failed&limit=2');
    for (;;) {
      expect(page.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.events.map((event) => event.at));
      if (!page.nextCursor) break;
      page = await list(`?action=login_failed&limit=2&cursor=${encodeURIComponent(page.nextCursor)}`);
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  behaviourIt('refuses a cursor it did not issue, or issued for other filters, and malformed filters (400 VALIDATION_FAILED)', async () => {
    const first = await list('?action=login_failed&limit=2');
    const cursor = first.nextCursor!;
    const forged = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}A`;
    const payload = Buffer.from(JSON.stringify(['2000-01-01 00:00:00.000', aliceId])).toString('base64url');
    for (const query of [
      `?action=login_failed&limit=2&cursor=${encodeURIComponent(forged)}`,
      `?action=login_failed&limit=2&cursor=${payload}.${cursor.split('.')[1]}`,
      `?action=login&limit=2&cursor=${encodeURIComponent(cursor)}`,
      `?limit=2&cursor=${encodeURIComponent(cursor)}`,
      '?userId=not-a-uuid',
      '?action=dance',
      '?limit=0',
      '?limit=101',
      `?cursor=${'x'.repeat(600)}`,
    ]) {
      const refused = await admin.send('get', `/auth/admin/audit${query}`);
      expect([query, refused.status, refused.body.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });

  behaviourIt('is for holders of audit:read only (403 PERMISSION_DENIED), and 401 without a credential', async () => {
    const member = t.device('192.0.2.50');
    const memberId = await member.signedUp('member@example.io');
    expect((await member.send('get', '/auth/admin/audit')).body.code).toBe('PERMISSION_DENIED');
    await t.app.get(AuthService).grantRole(memberId, 'auditor');
    expect((await member.send('get', '/auth/admin/audit?limit=1')).status).toBe(200);
    expect((await t.device().send('get', '/auth/admin/audit')).status).toBe(401);
  });
});

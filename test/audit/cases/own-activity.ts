import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AuditApp, createAuditApp, type CredentialKind, FIREFOX, SAFARI } from '../audit-kit.js';

// docs/guides/account-security.md, "Activity log": GET /me/activity, the signed-in user's own
// entries, newest first, as a bare array of { action, at, ip, userAgent }. Behaviour whatever the
// engine: SQLite, with each credential.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as CredentialKind[]).map((credential) => [engine, credential] as const));

describe.each(CASES)("a user's own activity on %s with the %s credential", (engine, credential) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, credential);
  });
  beforeEach(() => t.reset());
  afterAll(() => t?.close());

  it('lists only the user’s own entries, newest first, with nothing but action, at, ip and userAgent', async () => {
    const alice = t.device('203.0.113.5', FIREFOX);
    await alice.signedUp('alice@example.io');
    const bob = t.device('198.51.100.9', SAFARI);
    await bob.signedUp('bob@example.io');
    const start = t.clock.now().getTime();
    t.clock.advance(1000);
    expect((await alice.login('alice@example.io', 'wrong password here')).status).toBe(401);
    await t.afterResponses();
    t.clock.advance(1000);
    expect((await bob.login('bob@example.io')).status).toBe(200);
    t.clock.advance(1000);
    const phone = t.device('2001:db8:85a3:8d3::1', SAFARI);
    expect((await phone.login('alice@example.io')).status).toBe(200);

    const activity = await phone.activity();
    expect(activity.status).toBe(200);
    expect(activity.body).toEqual([
      { action: 'login', at: new Date(start + 3000).toISOString(), ip: '2001:db8:85a3::', userAgent: SAFARI },
      { action: 'login_failed', at: new Date(start + 1000).toISOString(), ip: '203.0.113.0', userAgent: FIREFOX },
      { action: 'login', at: new Date(start).toISOString(), ip: '203.0.113.0', userAgent: FIREFOX },
    ]);
    expect((await bob.activity()).body.map((entry: { action: string }) => entry.action)).toEqual(['login', 'login']);
  });

  it('takes ?limit= from 1 to 100 (default 20) and refuses anything else with 400 VALIDATION_FAILED', async () => {
    const alice = t.device();
    await alice.signedUp('many@example.io');
    for (let i = 0; i < 22; i++) {
      t.clock.advance(1000);
      expect((await alice.send('post', '/auth/login', { email: 'many@example.io', password: 'not it, sorry' })).status).toBe(401);
    }
    await t.afterResponses();
    expect((await alice.activity()).body).toHaveLength(20);
    expect((await alice.activity('?limit=1')).body).toEqual([expect.objectContaining({ action: 'login_failed' })]);
    expect((await alice.activity('?limit=100')).body).toHaveLength(23);
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=-1', '?limit=1.5', '?limit=1&limit=2', '?limit=']) {
      const refused = await alice.activity(query);
      expect([query, refused.status, refused.body.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });

  it('answers 401 without a credential', async () => {
    const anonymous = t.device();
    const refused = await anonymous.activity();
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHENTICATED');
  });
});

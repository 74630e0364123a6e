import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AuditApp, createAuditApp, type CredentialKind, DAY_MS, FIREFOX, SAFARI } from '../audit-kit.js';

// docs/guides/account-security.md, "The new_device notice": after a login whose user agent and network
// (IPv4 /24, IPv6 /48) are absent from the user's logins of the last 90 days, svc.security.notice.
// Behaviour whatever the engine: SQLite, with each credential. (The window compares the log's `at`
// with an instant in SQL, as the purge of cases/retention.ts does on every engine.)
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as CredentialKind[]).map((credential) => [engine, credential] as const));

describe.each(CASES)('the new_device notice on %s with the %s credential', (engine, credential) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, credential);
  });
  beforeEach(() => t.reset());
  afterAll(() => t?.close());

  /** The notices delivered so far (after every response's work has run). */
  const notices = () => t.delivered(AuthEvent.SecurityNotice);

  it('announces a login from a new user agent or network, once committed; never the signup, nor a known device', async () => {
    const laptop = t.device('203.0.113.10', FIREFOX);
    const userId = await laptop.signedUp('alice@example.io');
    // The signup is the first device: nothing to compare it with, no notice.
    expect((await laptop.login('alice@example.io')).status).toBe(200);
    // Same user agent, another address of the same /24: the same device.
    expect((await t.device('203.0.113.99', FIREFOX).login('alice@example.io')).status).toBe(200);
    expect(await notices()).toEqual([]);

    const phone = t.device('198.51.100.23', SAFARI);
    expect((await phone.login('alice@example.io')).status).toBe(200);
    expect(await notices()).toEqual([
      { user: expect.objectContaining({ id: userId, email: 'alice@example.io' }), notice: 'new_device', ip: '198.51.100.23', userAgent: SAFARI },
    ]);
    // Now known: no second notice from it.
    expect((await t.device('198.51.100.200', SAFARI).login('alice@example.io')).status).toBe(200);
    // The laptop's user agent from another network, and the phone's network with another user agent: new pairs.
    expect((await t.device('192.0.2.1', FIREFOX).login('alice@example.io')).status).toBe(200);
    expect((await t.device('198.51.100.23', FIREFOX).login('alice@example.io')).status).toBe(200);
    const sent = await notices();
    expect(sent.map((notice) => [notice.ip, notice.userAgent])).toEqual([
      ['198.51.100.23', SAFARI],
      ['192.0.2.1', FIREFOX],
      ['198.51.100.23', FIREFOX],
    ]);
    // Never a credential, token or secret: the payload holds these four fields only.
    for (const notice of sent) expect(Object.keys(notice).sort()).toEqual(['ip', 'notice', 'user', 'userAgent']);
  });

  it('compares IPv6 addresses by their /48, and forgets a device after 90 days', async () => {
    const first = t.device('2001:db8:85a3:1::7', SAFARI);
    await first.signedUp('bob@example.io');
    expect((await t.device('2001:db8:85a3:ffff::1', SAFARI).login('bob@example.io')).status).toBe(200);
    expect((await t.device('2001:0db8:85a3::9', SAFARI).login('bob@example.io')).status).toBe(200);
    expect(await notices()).toEqual([]);
    expect((await t.device('2001:db8:85a4::1', SAFARI).login('bob@example.io')).status).toBe(200);
    expect((await notices()).map((notice) => notice.ip)).toEqual(['2001:db8:85a4::1']);

    // 89 days later the device is still known; 91 days after its last login it is not.
    t.clock.advance(89 * DAY_MS);
    expect((await first.login('bob@example.io')).status).toBe(200);
    expect(await notices()).toHaveLength(1);
    t.clock.advance(91 * DAY_MS);
    expect((await first.login('bob@example.io')).status).toBe(200);
    expect((await notices()).map((notice) => notice.ip)).toEqual(['2001:db8:85a4::1', '2001:db8:85a3:1::7']);
  });

  it('announces nothing for a refused login', async () => {
    const laptop = t.device('203.0.113.10', FIREFOX);
    await laptop.signedUp('carol@example.io');
    expect((await t.device('192.0.2.77', SAFARI).login('carol@example.io', 'not her password')).status).toBe(401);
    expect(await notices()).toEqual([]);
  });
});

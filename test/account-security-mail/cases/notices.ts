import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SecurityNoticeEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AccountApp, createAccountApp, engineCredentialPairs, eventBodyOf, LOOPBACK, NEW_PASSWORD, PASSWORD, USER_AGENT } from '../account-security-mail-kit.js';

// docs/guides/account-security.md, "Notices": svc.security.notice after each change to how the
// account is reached, with the request's address and user agent, never a token or a secret; none
// when nothing changed. Behaviour whatever the engine: SQLite, with each credential.
const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);

describe.each(PAIRS)('security notices on %s with the %s credential', (engine, credential) => {
  let app: AccountApp;
  let serial = 0;
  const nextEmail = () => `notice${++serial}@x.io`;
  const noticesOf = async (userId: string) => (await app.notices()).filter((event) => event.user.id === userId);
  /** Nothing in a notice is a token or a secret: no field beyond the four, no value that looks like one. */
  const carriesNoSecret = (event: SecurityNoticeEvent) => {
    expect(Object.keys(event).sort()).toEqual(['ip', 'notice', 'user', 'userAgent']);
    expect(JSON.stringify({ ...event, notice: undefined })).not.toMatch(/token|password|secret|link|[A-Za-z0-9_-]{40,}/i);
  };

  beforeAll(async () => {
    app = await createAccountApp(engine, credential);
  });
  afterAll(() => app?.close());

  it('a change of password: password_changed with the user body, the address and the user agent; a refused change: none', async () => {
    const { browser, userId } = await app.signedUp(nextEmail());
    const refused = await browser.send('post', '/auth/change-password', { current_password: 'not the password', new_password: NEW_PASSWORD });
    expect(refused.status).toBe(403);
    expect(await noticesOf(userId)).toEqual([]);
    const me = (await browser.me()).body;
    expect((await browser.send('post', '/auth/change-password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(204);
    const notices = await noticesOf(userId);
    expect(notices).toEqual([{ user: eventBodyOf(me), notice: 'password_changed', ip: LOOPBACK, userAgent: USER_AGENT }]);
    carriesNoSecret(notices[0]);
  });

  it('a reset: password_changed, and account_reclaimed at the first proof of the mailbox; a refused reset: none', async () => {
    const email = nextEmail();
    const { browser, userId } = await app.signedUp(email);
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    const [mail] = app.events.payloadsOf('svc.password.reset_requested').filter((event) => event.user.id === userId);
    expect((await browser.send('post', '/auth/reset-password', { token: 'x'.repeat(43), password: NEW_PASSWORD })).status).toBe(400);
    expect(await noticesOf(userId)).toEqual([]);
    expect((await browser.send('post', '/auth/reset-password', { token: mail.token, password: NEW_PASSWORD })).status).toBe(204);
    const notices = await noticesOf(userId);
    expect(notices.map((event) => event.notice)).toEqual(['password_changed', 'account_reclaimed']);
    for (const event of notices) {
      expect(event).toEqual({ user: expect.objectContaining({ id: userId, email }), notice: event.notice, ip: LOOPBACK, userAgent: USER_AGENT });
      carriesNoSecret(event);
    }
    // A second reset: the mailbox was proven already, so no reclaim.
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    await app.afterResponses();
    const again = app.events.payloadsOf('svc.password.reset_requested').filter((event) => event.user.id === userId).at(-1)!;
    expect((await browser.send('post', '/auth/reset-password', { token: again.token, password: PASSWORD })).status).toBe(204);
    expect((await noticesOf(userId)).map((event) => event.notice)).toEqual(['password_changed', 'account_reclaimed', 'password_changed']);
  });

  it('two-step login turned off: two_step_disabled; turned on, or a refused disable: none', async () => {
    const { browser, userId } = await app.signedUp(nextEmail());
    const secret = await app.enableTotp(browser);
    expect(await noticesOf(userId)).toEqual([]);
    expect((await browser.send('post', '/auth/mfa/totp/disable', { password: 'not the password', code: app.codeOf(secret) })).status).toBe(403);
    expect(await noticesOf(userId)).toEqual([]);
    expect((await browser.send('post', '/auth/mfa/totp/disable', { password: PASSWORD, code: app.codeOf(secret) })).status).toBe(204);
    const notices = await noticesOf(userId);
    expect(notices).toEqual([{ user: expect.objectContaining({ id: userId, mfa: { totp: false } }), notice: 'two_step_disabled', ip: LOOPBACK, userAgent: USER_AGENT }]);
    carriesNoSecret(notices[0]);
  });

  it('a passkey added: passkey_added; a refused registration: none', async () => {
    const { browser, userId } = await app.signedUp(nextEmail());
    const options = await browser.send('post', '/auth/passkeys/register/options');
    const forged = browser.authenticator.create(options.body, { origin: 'https://evil.test' });
    expect((await browser.send('post', '/auth/passkeys/register', { response: forged })).status).not.toBe(201);
    expect(await noticesOf(userId)).toEqual([]);
    const { answer } = await browser.register();
    expect(answer.status).toBe(201);
    const notices = await noticesOf(userId);
    expect(notices).toEqual([{ user: expect.objectContaining({ id: userId }), notice: 'passkey_added', ip: LOOPBACK, userAgent: USER_AGENT }]);
    carriesNoSecret(notices[0]);
  });

  it('a login, a refresh, /me and a logout change no way in: no notice', async () => {
    const email = nextEmail();
    const { browser, userId } = await app.signedUp(email);
    expect((await browser.send('post', '/auth/login', { email, password: PASSWORD })).status).toBe(200);
    if (credential === 'jwt') expect((await browser.send('post', '/auth/refresh')).status).toBe(200);
    expect((await browser.me()).status).toBe(200);
    expect((await browser.send('post', '/auth/logout')).status).toBe(204);
    expect(await noticesOf(userId)).toEqual([]);
  });
});

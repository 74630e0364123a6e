import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createFreshApp, engineCredentialPairs, type FreshApp, reauthRequired, STALE_MS } from '../fresh-sign-in-kit.js';

// Behaviour whatever the engine: SQLite, with each credential.
describe.each(engineCredentialPairs(BEHAVIOUR_ENGINES))('fresh sign-in with a code or a passkey on %s, %s credential (docs/guides/account-security.md)', (engine, credential) => {
  let app: FreshApp;
  beforeAll(async () => {
    app = await createFreshApp(engine, credential);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a user with two-step login is offered the code; POST /reauth { code } makes the credential fresh; the same code again: 401 MFA_CODE_INVALID', async () => {
    const browser = await app.user(`totp-${engine}-${credential}@x.io`);
    const secret = await app.enableTotp(browser);
    await app.advance(browser, STALE_MS);
    const refused = await browser.send('post', '/auth/passkeys/register/options');
    expect([refused.status, refused.body]).toEqual([403, reauthRequired(['password', 'totp'])]);
    const code = app.codeOf(secret);
    const reauth = await app.reauth(browser, { code });
    expect(reauth.status).toBe(credential === 'session' ? 204 : 200);
    expect((await browser.send('post', '/auth/passkeys/register/options')).status).toBe(200);
    await app.advance(browser, STALE_MS);
    // RFC 6238 §5.2: a code is accepted once.
    const replayed = await app.reauth(browser, { code });
    expect([replayed.status, replayed.body.code]).toEqual([401, 'MFA_CODE_INVALID']);
    expect((await browser.send('post', '/app/transfer')).status).toBe(403);
  });

  it("the login's second step (/mfa/verify) is a sign-in: the new credential is fresh, and request.user.authTime says when", async () => {
    const browser = await app.user(`verify-${engine}-${credential}@x.io`);
    const secret = await app.enableTotp(browser);
    app.clock.advance(STALE_MS);
    const later = app.browser();
    const login = await later.send('post', '/auth/login', { email: `verify-${engine}-${credential}@x.io`, password: 'correct horse battery' });
    expect(login.body).toMatchObject({ mfaRequired: true });
    const verified = await later.send('post', '/auth/mfa/verify', { code: app.codeOf(secret) });
    expect(verified.status).toBe(200);
    const signIn = await later.send('get', '/app/sign-in');
    expect(signIn.body.authTime).toBe(app.clock.now().toISOString());
    // Not enumerable: a body made of request.user does not carry it.
    expect(signIn.body.keys).not.toContain('authTime');
    expect((await later.send('post', '/app/transfer')).status).toBe(204);
  });

  it('a code from a user without two-step login: 401 MFA_CODE_INVALID; password and code together: 400', async () => {
    const browser = await app.user(`no-totp-${engine}-${credential}@x.io`);
    await app.advance(browser, STALE_MS);
    const refused = await app.reauth(browser, { code: '123456' });
    expect([refused.status, refused.body.code]).toEqual([401, 'MFA_CODE_INVALID']);
    const both = await app.reauth(browser, { password: 'x', code: '123456' });
    expect([both.status, both.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await app.reauth(browser, {})).status).toBe(400);
  });

  it("a user's own passkey re-authenticates (POST /reauth/passkey/options, /reauth/passkey) and removing a passkey then is served", async () => {
    const browser = await app.user(`passkey-${engine}-${credential}@x.io`);
    expect((await browser.register()).answer.status).toBe(201);
    expect((await browser.register()).answer.status).toBe(201);
    await app.advance(browser, STALE_MS);
    const [first] = (await browser.send('get', '/auth/passkeys')).body as { id: string }[];
    const refused = await browser.send('delete', `/auth/passkeys/${first.id}`);
    expect([refused.status, refused.body]).toEqual([403, reauthRequired(['password', 'passkey'])]);
    const reauth = await app.reauthWithPasskey(browser);
    expect(reauth.status).toBe(credential === 'session' ? 204 : 200);
    expect((await browser.send('delete', `/auth/passkeys/${first.id}`)).status).toBe(204);
  });

  it("another user's passkey: 401 PASSKEY_INVALID, the credential stays stale", async () => {
    const stranger = await app.user(`stranger-${engine}-${credential}@x.io`);
    expect((await stranger.register()).answer.status).toBe(201);
    const browser = await app.user(`victim-${engine}-${credential}@x.io`);
    expect((await browser.register()).answer.status).toBe(201);
    await app.advance(browser, STALE_MS);
    const options = await browser.send('post', '/auth/reauth/passkey/options');
    expect(options.status).toBe(200);
    // The stranger's authenticator answers this user's challenge with the stranger's credential.
    const answer = stranger.authenticator.get({ ...options.body, allowCredentials: [] });
    const refused = await browser.send('post', '/auth/reauth/passkey', { response: answer });
    expect([refused.status, refused.body.code]).toEqual([401, 'PASSKEY_INVALID']);
    expect((await browser.send('post', '/app/transfer')).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { claimsOf, createFreshApp, engineCredentialPairs, type FreshApp, MINUTE_MS, reauthRequired, STALE_MS } from '../fresh-sign-in-kit.js';

// Behaviour whatever the engine: SQLite, with each credential.
describe.each(engineCredentialPairs(BEHAVIOUR_ENGINES))('fresh sign-in with the password on %s, %s credential (docs/guides/account-security.md)', (engine, credential) => {
  let app: FreshApp;
  beforeAll(async () => {
    app = await createFreshApp(engine, credential);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a sign-in of the last 15 minutes adds a passkey; older: 403 REAUTH_REQUIRED naming the password, and nothing is done', async () => {
    const browser = await app.user(`fresh-${engine}-${credential}@x.io`);
    expect((await browser.send('post', '/auth/passkeys/register/options')).status).toBe(200);
    await app.advance(browser, STALE_MS);
    const refused = await browser.send('post', '/auth/passkeys/register/options');
    expect([refused.status, refused.body]).toEqual([403, reauthRequired(['password'])]);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // The second step of a registration is refused too, before its body is looked at.
    const register = await browser.send('post', '/auth/passkeys/register', { response: {} });
    expect([register.status, register.body.code]).toEqual([403, 'REAUTH_REQUIRED']);
  });

  it('POST /reauth with the password: 204 (session) or a new access token carrying the new auth_time (jwt); then the route is served', async () => {
    const browser = await app.user(`reauth-${engine}-${credential}@x.io`);
    await app.advance(browser, STALE_MS);
    const staleToken = browser.bearer;
    const reauth = await app.reauth(browser);
    if (credential === 'session') {
      expect([reauth.status, reauth.text]).toEqual([204, '']);
    } else {
      expect(reauth.status).toBe(200);
      expect(Object.keys(reauth.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
      expect(claimsOf(reauth.body.access_token).auth_time).toBe(Math.floor(app.clock.now().getTime() / 1000));
      // The refresh cookie stays as it was: the same family.
      expect(reauth.headers['set-cookie']).toBeUndefined();
    }
    expect((await browser.send('post', '/auth/passkeys/register/options')).status).toBe(200);
    expect((await browser.send('post', '/app/transfer')).status).toBe(204);
    if (credential === 'jwt') {
      // The token minted before the re-authentication still says the old sign-in.
      const old = app.browser();
      old.bearer = staleToken;
      expect((await old.send('post', '/app/transfer')).status).toBe(403);
    }
  });

  it('a wrong password: 401 INVALID_CREDENTIALS, and the credential stays stale', async () => {
    const browser = await app.user(`wrong-${engine}-${credential}@x.io`);
    await app.advance(browser, STALE_MS);
    const wrong = await app.reauth(browser, { password: 'not the password' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect((await browser.send('post', '/app/transfer')).status).toBe(403);
  });

  it('the fresh window is the option, and a route may ask for less: @RequireFreshAuth(60)', async () => {
    const browser = await app.user(`window-${engine}-${credential}@x.io`);
    await app.advance(browser, MINUTE_MS + 1000);
    expect((await browser.send('post', '/app/close-account')).status).toBe(403);
    expect((await browser.send('post', '/app/transfer')).status).toBe(204);
    await app.advance(browser, 14 * MINUTE_MS);
    expect((await browser.send('post', '/app/transfer')).status).toBe(403);
  });

  it('GET /me never moves the sign-in, and its body shows no authTime', async () => {
    const browser = await app.user(`me-${engine}-${credential}@x.io`);
    await app.advance(browser, 10 * MINUTE_MS);
    const me = await browser.me();
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty('authTime');
    await app.advance(browser, 6 * MINUTE_MS);
    expect((await browser.send('post', '/app/transfer')).status).toBe(403);
  });

  if (credential === 'jwt') {
    it('refresh never moves auth_time; a refresh after /reauth carries the new one', async () => {
      const browser = await app.user(`refresh-${engine}-${credential}@x.io`);
      const signedInAt = claimsOf(browser.bearer!).auth_time as number;
      expect(signedInAt).toBe(Math.floor(app.clock.now().getTime() / 1000));
      await app.advance(browser, STALE_MS);
      const refreshed = await browser.send('post', '/auth/refresh');
      expect(refreshed.status).toBe(200);
      expect(claimsOf(refreshed.body.access_token).auth_time).toBe(signedInAt);
      expect((await browser.send('post', '/app/transfer')).status).toBe(403);
      expect((await app.reauth(browser)).status).toBe(200);
      const reauthAt = Math.floor(app.clock.now().getTime() / 1000);
      app.clock.advance(MINUTE_MS);
      const after = await browser.send('post', '/auth/refresh');
      expect(after.status).toBe(200);
      expect(claimsOf(after.body.access_token).auth_time).toBe(reauthAt);
      expect((await browser.send('post', '/app/transfer')).status).toBe(204);
    });
  } else {
    it('the session row records the sign-in; /reauth moves only its auth_time', async () => {
      const browser = await app.user(`row-${engine}-${credential}@x.io`);
      const [before] = await app.dataSource.query(`SELECT id, auth_time, created_at FROM sessions ORDER BY created_at DESC LIMIT 1`);
      expect(new Date(before.auth_time).getTime()).toBe(new Date(before.created_at).getTime());
      await app.advance(browser, STALE_MS);
      expect((await app.reauth(browser)).status).toBe(204);
      const [after] = await app.dataSource.query(`SELECT id, auth_time FROM sessions WHERE id = '${before.id}'`);
      expect(new Date(after.auth_time).getTime()).toBe(app.clock.now().getTime());
    });
  }
});

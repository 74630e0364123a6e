import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthOptions } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { claimsOf, createFreshApp, engineCredentialPairs, type FreshApp, PASSWORD, reauthRequired, STALE_MS } from '../fresh-sign-in-kit.js';

// Behaviour whatever the engine: SQLite, with each credential.
describe.each(engineCredentialPairs(BEHAVIOUR_ENGINES))('fresh sign-in before DELETE /me and POST /api-keys on %s, %s credential', (engine, credential) => {
  let app: FreshApp;
  beforeAll(async () => {
    app = await createFreshApp(engine, credential, { apiKeys: {} });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a stale credential neither deletes the account nor creates an API key (403 REAUTH_REQUIRED); after /reauth both are served', async () => {
    const browser = await app.user(`end-${engine}-${credential}@x.io`);
    await app.advance(browser, STALE_MS);
    const key = await browser.send('post', '/auth/api-keys', { name: 'ci' });
    expect([key.status, key.body]).toEqual([403, reauthRequired(['password'])]);
    const deletion = await browser.send('delete', '/auth/me');
    expect([deletion.status, deletion.body]).toEqual([403, reauthRequired(['password'])]);
    expect((await browser.me()).status).toBe(200);
    expect((await browser.send('get', '/auth/api-keys')).body).toEqual([]);

    expect((await app.reauth(browser)).status).toBe(credential === 'session' ? 204 : 200);
    expect((await browser.send('post', '/auth/api-keys', { name: 'ci' })).status).toBe(201);
    expect((await browser.send('delete', '/auth/me')).status).toBe(204);
  });
});

describe.each(BEHAVIOUR_ENGINES)('fresh sign-in of a native client in a session module on %s (docs/guides/machine-access.md)', (engine) => {
  let app: FreshApp;
  beforeAll(async () => {
    // `nativeClients` is a graph-shaping extra, passed beside the options as the native clients' suite does.
    app = await createFreshApp(engine, 'session', { nativeClients: true, apiKeys: {} } as Partial<AuthOptions>);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('POST /reauth with the bearer token answers a new access token with the new auth_time, which the fresh routes then take', async () => {
    const email = `native-${engine}@x.io`;
    await app.user(email);
    const phone = app.browser();
    phone.cookies.clear();
    const login = await phone.send('post', '/auth/login', { email, password: PASSWORD }, { 'X-Svc-Client': 'native' });
    expect(login.status).toBe(200);
    expect(phone.cookies.size).toBe(0);
    await app.advance(phone, STALE_MS);
    // A refresh keeps the family's sign-in time: the new access token is as stale as the old.
    const refreshed = await phone.send('post', '/auth/refresh', { refresh_token: login.body.refresh_token }, { 'X-Svc-Client': 'native' });
    expect(refreshed.status).toBe(200);
    const stale = await phone.send('post', '/auth/api-keys', { name: 'phone' });
    expect([stale.status, stale.body]).toEqual([403, reauthRequired(['password'])]);
    const reauth = await phone.send('post', '/auth/reauth', { password: PASSWORD });
    expect(reauth.status).toBe(200);
    expect(claimsOf(reauth.body.access_token).auth_time).toBe(Math.floor(app.clock.now().getTime() / 1000));
    expect((await phone.send('post', '/auth/api-keys', { name: 'phone' })).status).toBe(201);
  });
});

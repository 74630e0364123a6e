import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { browserCookieOf, claimsOf, CREDENTIALS, createNativeApp, NATIVE, type NativeApp, nativeTokensOf } from '../native-clients-kit.js';

// Behaviour whatever the engine: SQLite, with each browser credential.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(CASES)('native clients on %s, browser credential %s: tokens in the body', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential });
  });
  afterAll(() => t.close());

  it('a native signup and login answer with the four token fields and set no cookie', async () => {
    const signedUp = await t.nativeAccount('signup@x.io');
    expect(signedUp.refresh).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const login = await t.login('signup@x.io', NATIVE);
    expect(login.status).toBe(200);
    const tokens = nativeTokensOf(login);
    // Each login is a family of its own (a device).
    expect(tokens.familyId).not.toBe(signedUp.familyId);
    expect(claimsOf(tokens.access)).toMatchObject({ sub: expect.any(String), sid: tokens.familyId, typ: 'access' });
    const events = await t.events.waitFor(AuthEvent.LoginAfter);
    // The credential issued is jwt's, whatever the module's.
    expect(events).toContainEqual(expect.objectContaining({ user: expect.objectContaining({ email: 'signup@x.io' }), method: 'password', credential: 'jwt', strategy: 'jwt' }));
  });

  it('the header value is case-insensitive; any other value is a browser request', async () => {
    await t.nativeAccount('header@x.io');
    nativeTokensOf(await t.login('header@x.io', { 'X-Svc-Client': 'Native' }));
    const browser = await t.login('header@x.io', { 'X-Svc-Client': 'web' });
    expect(browser.status).toBe(200);
    expect(browser.body.refresh_token).toBeUndefined();
    browserCookieOf(browser, credential);
  });

  it('the bearer access token is accepted on /me and on an application route behind CurrentUserGuard', async () => {
    const tokens = await t.nativeAccount('bearer@x.io');
    const me = await t.get('/auth/me', tokens.access);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('bearer@x.io');
    const profile = await t.get('/profile', tokens.access);
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe('bearer@x.io');
  });

  it('a refused bearer token is 401 UNAUTHENTICATED with WWW-Authenticate: Bearer, never a fallback to a cookie', async () => {
    const browser = await t.signup('fallback@x.io');
    const cookie = browserCookieOf(browser, credential);
    const response = await request(t.url).get('/profile').set('Cookie', cookie).set('Authorization', 'Bearer a.b.c');
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('a browser login and a native login of the same user live side by side', async () => {
    await t.nativeAccount('both@x.io');
    const browser = await t.login('both@x.io');
    expect(browser.status).toBe(200);
    expect(browser.body.refresh_token).toBeUndefined();
    const native = nativeTokensOf(await t.login('both@x.io', NATIVE));

    if (credential === 'session') {
      const cookie = browserCookieOf(browser, credential);
      expect((await request(t.url).get('/auth/me').set('Cookie', cookie)).status).toBe(200);
      // A native login ends no browser session (it presents none), and the browser keeps its session.
      const sessions = await request(t.url).get('/auth/sessions').set('Cookie', cookie);
      expect(sessions.status).toBe(200);
      expect(sessions.body.filter((device: { current: boolean }) => device.current)).toHaveLength(1);
      expect(sessions.body.map((device: { id: string }) => device.id)).toContain(native.familyId);
    } else {
      expect((await t.get('/auth/me', browser.body.access_token)).status).toBe(200);
    }
    expect((await t.get('/auth/me', native.access)).status).toBe(200);
  });

  it("a native login ends no browser credential the request also carries", async () => {
    const browser = await t.signup('carried@x.io');
    const cookie = browserCookieOf(browser, credential);
    nativeTokensOf(await request(t.url).post('/auth/login').set(NATIVE).set('Cookie', cookie).send({ email: 'carried@x.io', password: 'correct horse battery' }));
    if (credential === 'session') expect((await request(t.url).get('/auth/me').set('Cookie', cookie)).status).toBe(200);
    else expect((await request(t.url).post('/auth/refresh').set('Cookie', cookie)).status).toBe(200);
  });

  it('a native login that presents a cross-site Origin and no cookie is not refused (no cookie, no cross-site check)', async () => {
    await t.nativeAccount('origin@x.io');
    const login = await request(t.url).post('/auth/login').set(NATIVE).set('Origin', 'https://elsewhere.example').send({ email: 'origin@x.io', password: 'correct horse battery' });
    const tokens = nativeTokensOf(login);
    const refreshed = await t.refresh({ refresh_token: tokens.refresh }).set('Origin', 'https://elsewhere.example');
    expect(refreshed.status).toBe(200);
  });
});

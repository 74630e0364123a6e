import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { browserCookieOf, CREDENTIALS, createNativeApp, NATIVE, type NativeApp, nativeTokensOf } from '../native-clients-kit.js';

// Behaviour whatever the engine: SQLite, with each browser credential.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

interface DeviceBody {
  id: string;
  current: boolean;
}

describe.each(CASES)('native logout and devices on %s, browser credential %s', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential });
  });
  afterAll(() => t.close());

  it('logout with the body token: 204, no cookie, the family ended (refresh and access token refused), svc.logout.after', async () => {
    const tokens = await t.nativeAccount('logout@x.io');
    const response = await t.logout({ refresh_token: tokens.refresh });
    expect(response.status).toBe(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await t.refresh({ refresh_token: tokens.refresh })).status).toBe(401);
    expect((await t.get('/auth/me', tokens.access)).status).toBe(401);
    const events = await t.events.waitFor(AuthEvent.LogoutAfter);
    expect(events.length).toBeGreaterThan(0);
    // Idempotent.
    expect((await t.logout({ refresh_token: tokens.refresh })).status).toBe(204);
    expect((await t.logout()).status).toBe(204);
  });

  it('logout with the bearer token alone ends its family', async () => {
    const tokens = await t.nativeAccount('bearer-logout@x.io');
    expect((await t.logout(undefined, tokens.access)).status).toBe(204);
    expect((await t.refresh({ refresh_token: tokens.refresh })).status).toBe(401);
  });

  it('a native logout leaves the browser credential of the same user alone', async () => {
    const tokens = await t.nativeAccount('keep@x.io');
    const browser = await t.login('keep@x.io');
    expect((await t.logout({ refresh_token: tokens.refresh })).status).toBe(204);
    if (credential === 'session') {
      expect((await request(t.url).get('/auth/me').set('Cookie', browserCookieOf(browser, credential))).status).toBe(200);
    } else {
      expect((await t.get('/auth/me', browser.body.access_token)).status).toBe(200);
    }
  });

  it('the native family is listed among the devices (current for its own bearer) and can be ended there', async () => {
    const tokens = await t.nativeAccount('devices@x.io');
    const other = nativeTokensOf(await t.login('devices@x.io', NATIVE));
    const listed = await t.get('/auth/sessions', tokens.access);
    expect(listed.status).toBe(200);
    const devices = listed.body as DeviceBody[];
    expect(devices.map((device) => device.id).sort()).toEqual([tokens.familyId, other.familyId].sort());
    expect(devices.find((device) => device.current)?.id).toBe(tokens.familyId);

    const ended = await t.withBearer(request(t.url).delete(`/auth/sessions/${other.familyId}`), tokens.access);
    expect(ended.status).toBe(204);
    expect((await t.get('/auth/me', other.access)).status).toBe(401);
    expect((await t.refresh({ refresh_token: other.refresh })).status).toBe(401);
    expect((await t.get('/auth/me', tokens.access)).status).toBe(200);
  });

  it('a browser ends a native device from its own session, and "log out everywhere else" ends native families too', async () => {
    const tokens = await t.nativeAccount('everywhere@x.io');
    const second = nativeTokensOf(await t.login('everywhere@x.io', NATIVE));
    const browser = await t.login('everywhere@x.io');
    const asBrowser = (test: request.Test) => (credential === 'session' ? test.set('Cookie', browserCookieOf(browser, credential)) : t.withBearer(test, browser.body.access_token));
    const listed = await asBrowser(request(t.url).get('/auth/sessions'));
    expect((listed.body as DeviceBody[]).map((device) => device.id)).toEqual(expect.arrayContaining([tokens.familyId, second.familyId]));
    expect((await asBrowser(request(t.url).delete(`/auth/sessions/${tokens.familyId}`))).status).toBe(204);
    expect((await t.get('/auth/me', tokens.access)).status).toBe(401);
    expect((await asBrowser(request(t.url).delete('/auth/sessions'))).status).toBe(204);
    expect((await t.get('/auth/me', second.access)).status).toBe(401);
    expect((await asBrowser(request(t.url).get('/auth/me'))).status).toBe(200);
  });
});

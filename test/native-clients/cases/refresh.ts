import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { browserCookieOf, claimsOf, CREDENTIALS, createNativeApp, type NativeApp, nativeTokensOf } from '../native-clients-kit.js';

// Behaviour whatever the engine: SQLite, with each browser credential. A native family is a refresh
// family like a jwt page's: its rotation, reuse and races on every engine are test/jwt/cases/refresh.ts's.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(CASES)('native refresh on %s, browser credential %s', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential });
  });
  afterAll(() => t.close());

  const expectInvalid = (response: request.Response) => {
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 401, code: 'REFRESH_TOKEN_INVALID' });
    expect(response.headers['set-cookie']).toBeUndefined();
  };

  it('rotates: a new pair in the same family, in the body, no cookie; svc.refresh.after fired', async () => {
    const first = await t.nativeAccount('rotate@x.io');
    const response = await t.refresh({ refresh_token: first.refresh });
    expect(response.status).toBe(200);
    const second = nativeTokensOf(response);
    expect(second.refresh).not.toBe(first.refresh);
    expect(second.familyId).toBe(first.familyId);
    expect(claimsOf(second.access).jti).not.toBe(claimsOf(first.access).jti);
    expect((await t.get('/auth/me', second.access)).status).toBe(200);
    const events = await t.events.waitFor(AuthEvent.RefreshAfter);
    expect(events).toContainEqual({ userId: claimsOf(first.access).sub, familyId: first.familyId });
    nativeTokensOf(await t.refresh({ refresh_token: second.refresh }));
  });

  it('a consumed token presented again revokes the family: the next refresh and its access tokens are 401', async () => {
    const first = await t.nativeAccount('reuse@x.io');
    const second = nativeTokensOf(await t.refresh({ refresh_token: first.refresh }));
    expectInvalid(await t.refresh({ refresh_token: first.refresh }));
    const reuse = await t.events.waitFor(AuthEvent.TokenReuseDetected);
    expect(reuse).toContainEqual(expect.objectContaining({ userId: claimsOf(first.access).sub, familyId: first.familyId }));
    expectInvalid(await t.refresh({ refresh_token: second.refresh }));
    const me = await t.get('/auth/me', second.access);
    expect({ status: me.status, code: me.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    expect(me.headers['www-authenticate']).toBe('Bearer');
    expect((await t.get('/profile', first.access)).status).toBe(401);
  });

  it('a missing or unknown token is 401 REFRESH_TOKEN_INVALID; a body of another shape is 400 VALIDATION_FAILED', async () => {
    expectInvalid(await t.refresh({}));
    expectInvalid(await request(t.url).post('/auth/refresh').set('X-Svc-Client', 'native'));
    expectInvalid(await t.refresh({ refresh_token: 'x'.repeat(43) }));
    for (const body of [{ refresh_token: 42 }, { refresh_token: 'a', extra: 1 }, { refresh_token: 'a\u0000b' }, [] as unknown as object]) {
      const response = await t.refresh(body);
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    }
  });

  it('a native refresh token sent as a refresh cookie: refused by a session module, taken by a jwt module', async () => {
    const tokens = await t.nativeAccount('cookie@x.io');
    const asCookie = await request(t.url).post('/auth/refresh').set('Cookie', `svc_refresh=${tokens.refresh}`);
    if (credential === 'session') {
      // The session module has no refresh cookie: only a native client refreshes there.
      expect({ status: asCookie.status, code: asCookie.body.code }).toEqual({ status: 401, code: 'REFRESH_TOKEN_INVALID' });
    } else {
      // Under the jwt credential a refresh token is a refresh token, whichever way it travels (one family store).
      expect(asCookie.status).toBe(200);
    }
  });

  it('an inactive user is 403 USER_INACTIVE', async () => {
    const tokens = await t.nativeAccount('inactive@x.io');
    await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE email = 'inactive@x.io'`);
    const response = await t.refresh({ refresh_token: tokens.refresh });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 403, code: 'USER_INACTIVE' });
  });

  it('a browser login still gets its browser credential', async () => {
    const browser = await t.signup('web@x.io');
    expect(browser.status).toBe(201);
    browserCookieOf(browser, credential);
    expect(browser.body.refresh_token).toBeUndefined();
  });
});

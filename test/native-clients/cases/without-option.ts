import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { browserCookieOf, CREDENTIALS, createNativeApp, NATIVE, type NativeApp } from '../native-clients-kit.js';

// Behaviour whatever the engine: SQLite, with each browser credential.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(CASES)('without nativeClients on %s, browser credential %s, the header changes nothing', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential, native: false });
  });
  afterAll(() => t.close());

  it('signup and login with X-Svc-Client: native get the browser credential and its usual body', async () => {
    const signup = await t.signup('plain@x.io', NATIVE);
    expect(signup.status).toBe(201);
    browserCookieOf(signup, credential);
    const login = await t.login('plain@x.io', NATIVE);
    expect(login.status).toBe(200);
    browserCookieOf(login, credential);
    if (credential === 'session') expect(login.body).toMatchObject({ email: 'plain@x.io' });
    else expect(Object.keys(login.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(login.body.refresh_token).toBeUndefined();
  });

  it('POST /refresh with a body token: 404 under the session credential (no such route), 401 under jwt (the cookie is read)', async () => {
    const response = await request(t.url).post('/auth/refresh').set(NATIVE).send({ refresh_token: 'x'.repeat(43) });
    if (credential === 'session') expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    else expect({ status: response.status, code: response.body.code }).toEqual({ status: 401, code: 'REFRESH_TOKEN_INVALID' });
  });
});

import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TEST_SECRET } from '../../support/test-app.js';
import { createAdminApp } from '../../admin/admin-kit.js';
import { createTwoStepApp } from '../../two-step/two-step-kit.js';
import { createPasskeyApp, credentialCookiesOf } from '../../passkeys/passkey-kit.js';
import { browserCookieOf, claimsOf, CREDENTIALS, createNativeApp, NATIVE, type NativeApp, nativeTokensOf, PASSWORD } from '../native-clients-kit.js';

const PAIRS = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));
const NEW_PASSWORD = 'a brand new passphrase';

describe.each(PAIRS)('native credentials and the routes that end them on %s, browser credential %s', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential });
  });
  afterAll(() => t.close());

  it('reset-password ends every native family of the user, beside the browser credentials', async () => {
    const phone = await t.nativeAccount('reset@x.io');
    const bystander = await t.nativeAccount('bystander@x.io');
    expect((await request(t.url).post('/auth/forgot-password').send({ email: 'reset@x.io' })).status).toBe(202);
    const [mailed] = await t.events.waitFor(AuthEvent.PasswordResetRequested);
    expect((await request(t.url).post('/auth/reset-password').send({ token: mailed.token, password: NEW_PASSWORD })).status).toBe(204);
    expect((await t.get('/auth/me', phone.access)).status).toBe(401);
    expect((await t.refresh({ refresh_token: phone.refresh })).status).toBe(401);
    expect((await t.get('/auth/me', bystander.access)).status).toBe(200);
  });

  it("change-password with the bearer token keeps that family and ends the user's other credentials, browser ones included", async () => {
    const phone = await t.nativeAccount('change@x.io');
    const tablet = nativeTokensOf(await t.login('change@x.io', NATIVE));
    const browser = await t.login('change@x.io');
    const changed = await t.withBearer(request(t.url).post('/auth/change-password'), phone.access).send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(204);
    expect((await t.get('/auth/me', phone.access)).status).toBe(200);
    expect((await t.get('/auth/me', tablet.access)).status).toBe(401);
    if (credential === 'session') expect((await request(t.url).get('/auth/me').set('Cookie', browserCookieOf(browser, credential))).status).toBe(401);
    else expect((await t.get('/auth/me', browser.body.access_token)).status).toBe(401);
  });
});

describe.each(PAIRS)('the second step of a native login on %s, browser credential %s', (engine, credential) => {
  it('the challenge of a native password login is verified at /mfa/verify with the header: tokens in the body', async () => {
    const t = await createTwoStepApp({ engine, credential, options: { nativeClients: true, jwt: { secretKey: TEST_SECRET } } as never });
    try {
      const user = await t.twoStepUser('second@x.io');
      const login = await request(t.url).post('/auth/login').set(NATIVE).send({ email: user.email, password: PASSWORD });
      expect(login.body).toMatchObject({ mfaRequired: true });
      const challenge = /svc_mfa=([^;]+)/.exec(String(login.headers['set-cookie']))![1];
      t.clock.advance(30_000);
      const verified = await t.verify(challenge, { code: t.codeOf(user.secret) }, NATIVE);
      expect(verified.status).toBe(200);
      // The challenge cookie is cleared; no credential cookie is set.
      expect(String(verified.headers['set-cookie'] ?? '')).not.toMatch(/svc_(session|refresh)=/);
      expect(Object.keys(verified.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect((await request(t.url).get('/auth/me').set('Authorization', `Bearer ${verified.body.access_token}`)).body.email).toBe(user.email);
    } finally {
      await t.close();
    }
  });
});

describe.each(PAIRS)('a native impersonation on %s, browser credential %s', (engine, credential) => {
  it('answers the tokens in the body, marked with the administrator; stop ends that family', async () => {
    const t = await createAdminApp(engine, credential, { nativeClients: true, ...(credential === 'jwt' ? {} : { jwt: { secretKey: TEST_SECRET } }) } as never);
    try {
      const admin = await t.user('root@example.io', ['admin']);
      const alice = await t.user('alice@example.io');
      const response = await t.call(admin, 'post', `/admin/users/${alice.userId}/impersonate`).set(NATIVE).expect(200);
      const tokens = nativeTokensOf(response);
      expect(claimsOf(tokens.access)).toMatchObject({ sub: alice.userId, act: { sub: admin.userId } });
      const bearer = { userId: alice.userId, email: alice.email, headers: { Authorization: `Bearer ${tokens.access}` } };
      expect((await t.me(bearer).expect(200)).body).toMatchObject({ id: alice.userId, impersonatedBy: admin.userId });
      await t.call(bearer, 'post', '/admin/impersonation/stop', {}).expect(204);
      await t.me(bearer).expect(401);
      await t.me(admin).expect(200);
    } finally {
      await t.close();
    }
  });
});

describe.each(PAIRS)('a native passkey login on %s, browser credential %s', (engine, credential) => {
  it('answers the tokens in the body and sets no credential cookie', async () => {
    const t = await createPasskeyApp({ engine, credential, options: { nativeClients: true, ...(credential === 'jwt' ? {} : { jwt: { secretKey: TEST_SECRET } }) } as never });
    try {
      const browser = t.browser();
      await browser.signup('passkey@x.io');
      expect((await browser.register()).answer.status).toBe(201);
      browser.signOut();
      const options = await browser.send('post', '/auth/passkeys/login/options');
      const answer = await browser.send('post', '/auth/passkeys/login', { response: browser.authenticator.get(options.body) }, NATIVE);
      expect(answer.status).toBe(200);
      expect(credentialCookiesOf(answer)).toEqual([]);
      expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect((await request(t.url).get('/auth/me').set('Authorization', `Bearer ${answer.body.access_token}`)).body.email).toBe('passkey@x.io');
    } finally {
      await t.close();
    }
  });
});

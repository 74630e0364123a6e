import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, AuthService } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { SoftwareAuthenticator } from '../../support/software-authenticator.js';
import { cookiesOf } from '../../support/test-app.js';
import { createPasskeyApp, credentialCookiesOf, engineCredentialPairs, type PasskeyApp, RP_ID } from '../passkey-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());

describe.each(PAIRS)('passkeys on %s with the %s credential: register, then sign in (docs/guides/passkeys.md)', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let app: PasskeyApp;
  let serial = 0;
  const nextEmail = () => `passkey${++serial}@x.io`;
  beforeAll(async () => {
    app = await createPasskeyApp({ engine, credential });
  });
  afterAll(() => app?.close());

  behaviourIt('creation options: the relying party, the user by an opaque handle, a discoverable credential with user verification; the challenge cookie', async () => {
    const browser = app.browser();
    const email = nextEmail();
    await browser.signup(email);
    const me = (await browser.me()).body;
    const options = await browser.send('post', '/auth/passkeys/register/options');
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rp: { id: RP_ID, name: RP_ID },
      user: { id: Buffer.from(me.id.replace(/-/g, ''), 'hex').toString('base64url'), name: email, displayName: email },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      timeout: 300_000,
    });
    expect(options.body.pubKeyCredParams).toContainEqual({ alg: -7, type: 'public-key' });
    const cookie = cookiesOf(options).svc_passkey;
    expect(cookie.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Max-Age=300', 'Path=/auth', 'HttpOnly', 'Secure', 'SameSite=Strict']));
  });

  behaviourIt('registers a passkey: 201 { id, name, createdAt }, its row (credential id, COSE key, counter, transports, backup flags), svc.passkey.registered', async () => {
    const browser = app.browser();
    await browser.signup(nextEmail());
    const me = (await browser.me()).body;
    const { response, answer } = await browser.register();
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.any(String), name: 'Passkey', createdAt: app.clock.now().toISOString() });
    // The challenge is spent: its cookie is cleared.
    expect(cookiesOf(answer).svc_passkey.value).toBe('');
    const [row] = (await app.rows('passkeys')).filter((passkey) => passkey.user_id === me.id);
    expect(row).toMatchObject({ id: answer.body.id, credential_id: response.id, transports: 'internal', device_type: 'singleDevice', name: 'Passkey', last_used_at: null });
    expect(Number(row.counter)).toBe(0);
    expect([false, 0]).toContain(row.backed_up);
    expect(String(row.public_key)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await app.delivered(AuthEvent.PasskeyRegistered)).filter((event) => event.user.id === me.id)).toEqual([{ user: me, passkeyId: answer.body.id, name: 'Passkey' }]);
    // A second one is named apart, or as asked; the first is excluded from the next creation options.
    const second = await browser.register({ name: '  Work laptop ' });
    expect(second.answer.body.name).toBe('Work laptop');
    expect(second.options.body.excludeCredentials).toEqual([{ id: response.id, transports: ['internal'], type: 'public-key' }]);
    expect((await browser.register()).answer.body.name).toBe('Passkey 3');
  });

  behaviourIt('signs in with the passkey, no email typed: the credential as a password login gives it, svc.login.after with method passkey and the credential as strategy', async () => {
    const browser = app.browser();
    const email = nextEmail();
    await browser.signup(email);
    const me = (await browser.me()).body;
    expect((await browser.register()).answer.status).toBe(201);
    browser.signOut();
    expect((await browser.me()).status).toBe(401);

    app.clock.advance(60_000);
    const { answer } = await browser.signIn();
    expect(answer.status).toBe(200);
    if (credential === 'session') {
      expect(answer.body).toEqual(me);
      expect(credentialCookiesOf(answer)).toEqual(['svc_session']);
    } else {
      expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 600 });
      expect(credentialCookiesOf(answer)).toEqual(['svc_refresh']);
    }
    expect(cookiesOf(answer).svc_passkey.value).toBe('');
    expect((await browser.me()).body).toEqual(me);
    if (credential === 'jwt') expect((await browser.send('post', '/auth/refresh')).status).toBe(200);

    const logins = (await app.delivered(AuthEvent.LoginAfter)).filter((event) => event.user.id === me.id);
    expect(logins.at(-1)).toEqual({ user: me, strategy: credential, method: 'passkey', credential });
    const [row] = (await app.rows('passkeys')).filter((passkey) => passkey.user_id === me.id);
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).not.toBeNull();
    const list = await browser.send('get', '/auth/passkeys');
    expect(list.body).toEqual([{ id: row.id, name: 'Passkey', createdAt: expect.any(String), lastUsedAt: app.clock.now().toISOString() }]);

    // And again, the counter moving on.
    browser.signOut();
    expect((await browser.signIn()).answer.status).toBe(200);
    expect(Number((await app.rows('passkeys')).find((passkey) => passkey.id === row.id)!.counter)).toBe(2);
  });

  behaviourIt('a synced passkey (a password manager\'s) is stored as multi-device and backed up', async () => {
    const browser = app.browser(new SoftwareAuthenticator({ synced: true }));
    await browser.signup(nextEmail());
    const { answer } = await browser.register();
    expect(answer.status).toBe(201);
    const [row] = (await app.rows('passkeys')).filter((passkey) => passkey.id === answer.body.id);
    expect(row.device_type).toBe('multiDevice');
    expect([true, 1]).toContain(row.backed_up);
    browser.signOut();
    expect((await browser.signIn()).answer.status).toBe(200);
  });

  behaviourIt('login options name no user and are alike for everyone: no allowCredentials, only a fresh challenge', async () => {
    const stranger = await app.browser().send('post', '/auth/passkeys/login/options');
    const signedIn = app.browser();
    await signedIn.signup(nextEmail());
    await signedIn.register();
    const known = await signedIn.send('post', '/auth/passkeys/login/options');
    for (const answer of [stranger, known]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ rpId: RP_ID, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), timeout: 300_000, userVerification: 'required' });
    }
    expect(stranger.body.challenge).not.toBe(known.body.challenge);
  });

  it('purgeExpired() deletes the used challenges once they have expired, and a spent answer stays refused after it', async () => {
    const browser = app.browser();
    await browser.signup(nextEmail());
    await browser.register();
    browser.signOut();
    const options = await browser.send('post', '/auth/passkeys/login/options');
    const cookie = browser.cookies.get('svc_passkey')!;
    const assertion = browser.authenticator.get(options.body);
    expect((await browser.send('post', '/auth/passkeys/login', { response: assertion })).status).toBe(200);
    const used = (await app.rows('passkey_used_challenges')).length;
    expect(used).toBeGreaterThanOrEqual(2);
    expect((await app.app.get(AuthService).purgeExpired()).passkeyUsedChallenges).toBe(0);
    app.clock.advance(301_000);
    expect((await app.app.get(AuthService).purgeExpired()).passkeyUsedChallenges).toBe(used);
    expect(await app.rows('passkey_used_challenges')).toEqual([]);
    browser.signOut();
    browser.cookies.set('svc_passkey', cookie);
    expect((await browser.send('post', '/auth/passkeys/login', { response: assertion })).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { AuthEvent, type UserBody } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { SoftwareAuthenticator, strangerKey } from '../../support/software-authenticator.js';
import { type Browser, createPasskeyApp, credentialCookiesOf, engineCredentialPairs, PASSKEY_INVALID, type PasskeyApp, PASSWORD, RP_ID } from '../passkey-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());

describe.each(PAIRS)('passkey answers that prove nothing, on %s with the %s credential: 401 PASSKEY_INVALID, no credential (docs/guides/passkeys.md)', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let app: PasskeyApp;
  let serial = 0;
  beforeAll(async () => {
    app = await createPasskeyApp({ engine, credential });
  });
  afterAll(() => app?.close());

  /** A user with one passkey, on a signed-out page. */
  async function owner(): Promise<{ browser: Browser; me: UserBody; passkeyId: string }> {
    const browser = app.browser();
    await browser.signup(`owner${++serial}@x.io`);
    const me = (await browser.me()).body as UserBody;
    const { answer } = await browser.register();
    expect(answer.status).toBe(201);
    browser.signOut();
    return { browser, me, passkeyId: answer.body.id };
  }

  /** What a login leaves behind: the credential rows, and the logins published. */
  async function issued(): Promise<{ rows: number; logins: number }> {
    const rows = (await app.rows(credential === 'session' ? 'sessions' : 'refresh_tokens')).length;
    return { rows, logins: (await app.delivered(AuthEvent.LoginAfter)).length };
  }

  /** The answer is the refusal, with no credential cookie, no new credential row, and no login published. */
  async function expectRefused(answer: request.Response, before: { rows: number; logins: number }): Promise<void> {
    expect([answer.status, answer.body]).toEqual([401, PASSKEY_INVALID]);
    expect(credentialCookiesOf(answer)).toEqual([]);
    expect(await issued()).toEqual(before);
  }

  /** Request options and their challenge cookie, without answering them. */
  async function loginOptions(browser: Browser): Promise<{ body: { challenge: string; rpId: string }; cookie: string }> {
    const options = await browser.send('post', '/auth/passkeys/login/options');
    return { body: options.body, cookie: browser.cookies.get('svc_passkey')! };
  }

  const postLogin = (browser: Browser, response: unknown, cookie?: string) => {
    if (cookie === undefined) browser.cookies.delete('svc_passkey');
    else browser.cookies.set('svc_passkey', cookie);
    return browser.send('post', '/auth/passkeys/login', { response });
  };

  behaviourIt('a forged assertion: signed with a key that is not the passkey\'s', async () => {
    const { browser } = await owner();
    const before = await issued();
    const { answer } = await browser.signIn({ signWith: strangerKey() });
    await expectRefused(answer, before);
  });

  behaviourIt('a replayed assertion: refused with its own spent challenge cookie, and with a fresh one', async () => {
    const { browser } = await owner();
    const { body, cookie } = await loginOptions(browser);
    const assertion = browser.authenticator.get(body);
    expect((await postLogin(browser, assertion, cookie)).status).toBe(200);
    browser.signOut();
    const before = await issued();
    await expectRefused(await postLogin(browser, assertion, cookie), before);
    const fresh = await loginOptions(browser);
    await expectRefused(await postLogin(browser, assertion, fresh.cookie), before);
  });

  behaviourIt('an assertion made for another origin (a phishing page)', async () => {
    const { browser } = await owner();
    const before = await issued();
    await expectRefused((await browser.signIn({ origin: 'https://app.test.evil.example' })).answer, before);
    await expectRefused((await browser.signIn({ origin: 'http://app.test' })).answer, before);
  });

  behaviourIt('an unknown credential: one this application never registered', async () => {
    const { browser, me } = await owner();
    const stranger = new SoftwareAuthenticator();
    stranger.create({ challenge: 'AAAA', rp: { id: RP_ID }, user: { id: Buffer.from(me.id.replace(/-/g, ''), 'hex').toString('base64url') } });
    const before = await issued();
    const { body, cookie } = await loginOptions(browser);
    await expectRefused(await postLogin(browser, stranger.get(body), cookie), before);
  });

  it('a reused challenge: a second assertion over the same challenge cookie, however valid; of concurrent ones exactly one wins', async () => {
    const { browser } = await owner();
    const { body, cookie } = await loginOptions(browser);
    const first = browser.authenticator.get(body);
    const second = browser.authenticator.get(body);
    expect((await postLogin(browser, first, cookie)).status).toBe(200);
    browser.signOut();
    const before = await issued();
    await expectRefused(await postLogin(browser, second, cookie), before);

    const racing = await loginOptions(browser);
    const assertions = [1, 2, 3, 4].map(() => browser.authenticator.get(racing.body));
    const pages = assertions.map(() => app.browser());
    const statuses = await Promise.all(assertions.map((assertion, i) => postLogin(pages[i], assertion, racing.cookie).then((answer) => answer.status)));
    expect(statuses.sort()).toEqual([200, 401, 401, 401]);
  });

  behaviourIt('an expired challenge, a missing one, and a registration challenge offered to the login', async () => {
    const { browser } = await owner();
    const before = await issued();
    const { body, cookie } = await loginOptions(browser);
    app.clock.advance(301_000);
    await expectRefused(await postLogin(browser, browser.authenticator.get(body), cookie), before);
    const fresh = await loginOptions(browser);
    await expectRefused(await postLogin(browser, browser.authenticator.get(fresh.body)), before);

    const signedIn = app.browser();
    await signedIn.signup(`registering${++serial}@x.io`);
    await signedIn.send('post', '/auth/passkeys/register/options');
    const registrationCookie = signedIn.cookies.get('svc_passkey')!;
    const again = await loginOptions(browser);
    const beforeMixUp = await issued();
    await expectRefused(await postLogin(browser, browser.authenticator.get(again.body), registrationCookie), beforeMixUp);
  });

  it('a signature counter that goes backwards (a cloned authenticator): refused, and svc.passkey.counter_regression published', async () => {
    const { browser, me, passkeyId } = await owner();
    expect((await browser.signIn({ counter: 10 })).answer.status).toBe(200);
    browser.signOut();
    const before = await issued();
    await expectRefused((await browser.signIn({ counter: 5 })).answer, before);
    await expectRefused((await browser.signIn({ counter: 10 })).answer, before);
    const reports = (await app.delivered(AuthEvent.PasskeyCounterRegression)).filter((event) => event.userId === me.id);
    expect(reports).toEqual([
      { userId: me.id, passkeyId, storedCounter: 10, presentedCounter: 5, ip: expect.stringMatching(/127\.0\.0\.1$/), at: app.clock.now() },
      { userId: me.id, passkeyId, storedCounter: 10, presentedCounter: 10, ip: expect.stringMatching(/127\.0\.0\.1$/), at: app.clock.now() },
    ]);
    // The passkey's counter stays where it was; the next real use goes on from it.
    expect(Number((await app.rows('passkeys')).find((row) => row.id === passkeyId)!.counter)).toBe(10);
    expect((await browser.signIn({ counter: 11 })).answer.status).toBe(200);
    // A forged answer with a low counter is refused as a forgery, and reported as nothing.
    browser.signOut();
    const beforeForgery = await issued();
    await expectRefused((await browser.signIn({ counter: 3, signWith: strangerKey() })).answer, beforeForgery);
    expect((await app.delivered(AuthEvent.PasskeyCounterRegression)).filter((event) => event.userId === me.id)).toHaveLength(2);
  });

  behaviourIt('no user verification under userVerification: required; a user handle that names another account', async () => {
    const { browser } = await owner();
    const before = await issued();
    await expectRefused((await browser.signIn({ userVerified: false })).answer, before);
    const { body, cookie } = await loginOptions(browser);
    const assertion = browser.authenticator.get(body) as { response: { userHandle: string } };
    assertion.response.userHandle = Buffer.alloc(16, 7).toString('base64url');
    await expectRefused(await postLogin(browser, assertion, cookie), before);
  });

  behaviourIt('an inactive user: 403 USER_INACTIVE, no credential, as other logins', async () => {
    const { browser, me } = await owner();
    await app.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE id = '${me.id}'`);
    const before = await issued();
    const { answer } = await browser.signIn();
    expect([answer.status, answer.body.code]).toEqual([403, 'USER_INACTIVE']);
    expect(credentialCookiesOf(answer)).toEqual([]);
    expect(await issued()).toEqual(before);
  });

  behaviourIt('registration: another origin, a reused challenge, another user\'s challenge cookie, no challenge: 401 PASSKEY_INVALID, nothing stored', async () => {
    const browser = app.browser();
    await browser.signup(`registrar${++serial}@x.io`);
    const me = (await browser.me()).body as UserBody;
    const passkeysOf = async () => (await app.rows('passkeys')).filter((row) => row.user_id === me.id);
    const refused = (answer: request.Response) => expect([answer.status, answer.body]).toEqual([401, PASSKEY_INVALID]);

    refused((await browser.register({}, { origin: 'https://evil.example' })).answer);

    const options = await browser.send('post', '/auth/passkeys/register/options');
    const cookie = browser.cookies.get('svc_passkey')!;
    expect((await browser.send('post', '/auth/passkeys/register', { response: browser.authenticator.create(options.body) })).status).toBe(201);
    browser.cookies.set('svc_passkey', cookie);
    refused(await browser.send('post', '/auth/passkeys/register', { response: browser.authenticator.create(options.body) }));

    const other = app.browser();
    await other.signup(`other${++serial}@x.io`);
    const othersOptions = await other.send('post', '/auth/passkeys/register/options');
    browser.cookies.set('svc_passkey', other.cookies.get('svc_passkey')!);
    refused(await browser.send('post', '/auth/passkeys/register', { response: browser.authenticator.create(othersOptions.body) }));

    refused(await browser.send('post', '/auth/passkeys/register', { response: browser.authenticator.create(options.body) }));
    refused((await browser.register({}, { userVerified: false })).answer);
    expect(await passkeysOf()).toHaveLength(1);
  });

  behaviourIt('a credential registered already (an authenticator ignoring excludeCredentials), to the same or another user: 401 PASSKEY_INVALID, nothing stored', async () => {
    const { browser, me } = await owner();
    const [credential] = browser.authenticator.credentials;
    await browser.send('post', '/auth/login', { email: me.email, password: PASSWORD });
    const same = (await browser.register({}, { credentialId: credential.id })).answer;
    expect([same.status, same.body]).toEqual([401, PASSKEY_INVALID]);
    const other = app.browser(browser.authenticator);
    await other.signup(`taker${++serial}@x.io`);
    const taken = (await other.register({}, { credentialId: credential.id })).answer;
    expect([taken.status, taken.body]).toEqual([401, PASSKEY_INVALID]);
    expect((await app.rows('passkeys')).filter((row) => row.credential_id === credential.id).map((row) => row.user_id)).toEqual([me.id]);
  });

  behaviourIt('a response of the wrong shape is 400 VALIDATION_FAILED, never a 500', async () => {
    const { browser } = await owner();
    await browser.send('post', '/auth/passkeys/login/options');
    const valid = browser.authenticator.get({ challenge: 'AAAA', rpId: RP_ID }) as Record<string, unknown>;
    for (const response of [undefined, 'text', 42, [], null, { ...valid, type: 'other' }, { ...valid, response: 'x' }, { ...valid, response: { ...(valid.response as object), signature: 7 } }, { ...valid, id: 'not base64url!' }]) {
      const answer = await browser.send('post', '/auth/passkeys/login', response === undefined ? {} : { response });
      expect([answer.status, answer.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const extra = await browser.send('post', '/auth/passkeys/login', { response: valid, email: 'x@x.io' });
    expect([extra.status, extra.body.message]).toEqual([400, ['property email should not exist']]);
  });
});

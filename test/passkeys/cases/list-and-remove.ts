import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, type AuthOptions, type UserBody } from '#svc/auth';
import { availableEngines, behaviourOnly, BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type Browser, createPasskeyApp, engineCredentialPairs, PASSKEY_INVALID, type PasskeyApp } from '../passkey-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());
const NO_SUCH_PASSKEY = { statusCode: 404, error: 'Not Found', message: 'No such passkey', code: 'NOT_FOUND' };
const UNDECODABLE = { statusCode: 400, error: 'Bad Request', message: ['path: a parameter is not valid percent-encoding'], code: 'VALIDATION_FAILED' };

describe.each(PAIRS)("a user's passkeys on %s with the %s credential: list, rename, remove (docs/guides/passkeys.md)", (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let app: PasskeyApp;
  let serial = 0;
  beforeAll(async () => {
    app = await createPasskeyApp({ engine, credential });
  });
  afterAll(() => app?.close());

  async function signedUp(): Promise<{ browser: Browser; me: UserBody }> {
    const browser = app.browser();
    await browser.signup(`lister${++serial}@x.io`);
    return { browser, me: (await browser.me()).body as UserBody };
  }

  async function addPasskey(browser: Browser, name?: string): Promise<{ id: string; name: string; createdAt: string }> {
    app.clock.advance(1000);
    const { answer } = await browser.register(name === undefined ? {} : { name });
    expect(answer.status).toBe(201);
    return answer.body;
  }

  /** Leaves the user no password: an account a provider created, say. */
  const dropPassword = (id: string) => app.dataSource.query(`UPDATE users SET password_hash = NULL WHERE id = '${id}'`);

  behaviourIt("GET /passkeys: the user's own, oldest first; needs the credential", async () => {
    const { browser } = await signedUp();
    const first = await addPasskey(browser, 'Phone');
    const second = await addPasskey(browser, 'Laptop');
    const other = await signedUp();
    await addPasskey(other.browser, 'Not yours');
    const list = await browser.send('get', '/auth/passkeys');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { ...first, lastUsedAt: null },
      { ...second, lastUsedAt: null },
    ]);
    const anonymous = await app.browser().send('get', '/auth/passkeys');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await app.browser().send('post', '/auth/passkeys/register/options')).status).toBe(401);
  });

  behaviourIt('PATCH /passkeys/{id} renames (trimmed, 1..64 characters, no control or format character); another user\'s or an unknown id is 404', async () => {
    const { browser } = await signedUp();
    const passkey = await addPasskey(browser);
    const renamed = await browser.send('patch', `/auth/passkeys/${passkey.id}`, { name: ' Security key ' });
    expect([renamed.status, renamed.body]).toEqual([200, { ...passkey, name: 'Security key', lastUsedAt: null }]);
    expect((await browser.send('get', '/auth/passkeys')).body[0].name).toBe('Security key');
    for (const name of ['', '   ', 'x'.repeat(65), 'evil\u202Ename', 'tab\tname', 42]) {
      const refused = await browser.send('patch', `/auth/passkeys/${passkey.id}`, { name });
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const other = await signedUp();
    for (const id of [passkey.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const refused = await other.browser.send('patch', `/auth/passkeys/${id}`, { name: 'Mine now' });
      expect([refused.status, refused.body]).toEqual([404, NO_SUCH_PASSKEY]);
    }
    expect((await browser.send('get', '/auth/passkeys')).body[0].name).toBe('Security key');
  });

  behaviourIt('DELETE /passkeys/{id}: 204, the row gone, svc.passkey.removed; the passkey no longer signs in; another user\'s is 404', async () => {
    const { browser, me } = await signedUp();
    const passkey = await addPasskey(browser, 'Old phone');
    const other = await signedUp();
    const foreign = await other.browser.send('delete', `/auth/passkeys/${passkey.id}`);
    expect([foreign.status, foreign.body]).toEqual([404, NO_SUCH_PASSKEY]);

    const removed = await browser.send('delete', `/auth/passkeys/${passkey.id}`);
    expect([removed.status, removed.text]).toEqual([204, '']);
    expect((await app.rows('passkeys')).filter((row) => row.id === passkey.id)).toEqual([]);
    expect((await app.delivered(AuthEvent.PasskeyRemoved)).filter((event) => event.user.id === me.id)).toEqual([{ user: me, passkeyId: passkey.id, name: 'Old phone' }]);
    expect((await browser.send('delete', `/auth/passkeys/${passkey.id}`)).status).toBe(404);
    browser.signOut();
    const { answer } = await browser.signIn();
    expect([answer.status, answer.body]).toEqual([401, PASSKEY_INVALID]);
  });

  behaviourIt('PATCH and DELETE /passkeys/{id} with an id that is not valid percent-encoding: 400 VALIDATION_FAILED with the error body, the passkey kept', async () => {
    const { browser } = await signedUp();
    const passkey = await addPasskey(browser, 'Kept');
    for (const id of ['%ZZ', '%E0%A4%A']) {
      const renamed = await browser.send('patch', `/auth/passkeys/${id}`, { name: 'Renamed' });
      expect([id, renamed.status, renamed.body]).toEqual([id, 400, UNDECODABLE]);
      const removed = await browser.send('delete', `/auth/passkeys/${id}`);
      expect([id, removed.status, removed.body]).toEqual([id, 400, UNDECODABLE]);
    }
    expect((await browser.send('get', '/auth/passkeys')).body.map((listed: { id: string; name: string }) => [listed.id, listed.name])).toEqual([[passkey.id, 'Kept']]);
  });

  behaviourIt('the last way in stays: without a password, the only passkey cannot be removed (409 LAST_LOGIN_METHOD); with a password it can', async () => {
    const { browser, me } = await signedUp();
    const first = await addPasskey(browser);
    const second = await addPasskey(browser);
    await dropPassword(me.id);
    expect((await browser.send('delete', `/auth/passkeys/${first.id}`)).status).toBe(204);
    const last = await browser.send('delete', `/auth/passkeys/${second.id}`);
    expect([last.status, last.body]).toEqual([409, { statusCode: 409, error: 'Conflict', message: 'This is your only way to sign in', code: 'LAST_LOGIN_METHOD' }]);
    expect((await browser.send('get', '/auth/passkeys')).body.map((passkey: { id: string }) => passkey.id)).toEqual([second.id]);
    // It still signs the user in.
    browser.signOut();
    expect((await browser.signIn()).answer.status).toBe(200);
    expect((await browser.me()).body).toEqual(me);

    const withPassword = await signedUp();
    const only = await addPasskey(withPassword.browser);
    expect((await withPassword.browser.send('delete', `/auth/passkeys/${only.id}`)).status).toBe(204);
  });

  it('two concurrent removals of the last two ways in: exactly one succeeds (the user row is locked while the ways in are counted)', async () => {
    const { browser, me } = await signedUp();
    const passkeys = [await addPasskey(browser), await addPasskey(browser)];
    await dropPassword(me.id);
    const statuses = await Promise.all(passkeys.map((passkey) => browser.send('delete', `/auth/passkeys/${passkey.id}`).then((answer) => answer.status)));
    expect(statuses.sort()).toEqual([204, 409]);
    expect((await app.rows('passkeys')).filter((row) => row.user_id === me.id)).toHaveLength(1);
  });

  behaviourIt('a request from another origin that a cookie authenticates is refused (403 CSRF_REJECTED): the challenge cookie too', async () => {
    const { browser } = await signedUp();
    const passkey = await addPasskey(browser);
    browser.signOut();
    await browser.send('post', '/auth/passkeys/login/options');
    const crossSite = await browser.send('post', '/auth/passkeys/login', { response: browser.authenticator.get({ challenge: 'AAAA', rpId: 'app.test' }) }, { Origin: 'https://evil.example' });
    expect([crossSite.status, crossSite.body.code]).toEqual([403, 'CSRF_REJECTED']);
    if (credential === 'session') {
      expect((await browser.signIn()).answer.status).toBe(200);
      const removal = await browser.send('delete', `/auth/passkeys/${passkey.id}`, undefined, { Origin: 'https://evil.example' });
      expect([removal.status, removal.body.code]).toEqual([403, 'CSRF_REJECTED']);
      expect((await browser.send('get', '/auth/passkeys')).body).toHaveLength(1);
    }
  });
});

describe.each(BEHAVIOUR_ENGINES)('passkeys and linked identities count together as ways in, on %s (docs/guides/passkeys.md)', (engine) => {
  let app: PasskeyApp;
  beforeAll(async () => {
    app = await createPasskeyApp({
      engine,
      credential: 'session',
      options: {
        credential: 'session',
        oauth2: {
          providers: [
            {
              name: 'acme',
              clientId: 'svc-passkeys',
              clientSecret: 'Hk3vQ9zL2mW7xN4bT8cR1jF6yG5dPa0s',
              authorizationUrl: 'https://acme.test/authorize',
              tokenUrl: 'https://acme.test/token',
              userinfoUrl: 'https://acme.test/userinfo',
              mapProfileToUser: (profile) => ({ provider: 'acme', providerUserId: String(profile.sub), email: null, emailVerified: false, name: null, avatarUrl: null }),
            },
          ],
        },
      } as Partial<AuthOptions>,
    });
  });
  afterAll(() => app?.close());

  it('a user with no password, an identity and a passkey may remove either, never both', async () => {
    const browser = app.browser();
    await browser.signup('provider-made@x.io');
    const me = (await browser.me()).body as UserBody;
    // As a provider login leaves a user: no password, one linked identity.
    await app.dataSource.query(`UPDATE users SET password_hash = NULL WHERE id = '${me.id}'`);
    await app.dataSource.query(`INSERT INTO oauth_accounts (id, provider, provider_user_id, user_id, email, created_at) VALUES ('00000000-0000-4000-8000-0000000000e1', 'acme', 'acme-1', '${me.id}', NULL, '2026-11-21 10:00:00')`);

    const first = (await browser.register()).answer.body;
    expect((await browser.send('delete', `/auth/passkeys/${first.id}`)).status).toBe(204);
    const second = (await browser.register()).answer.body;
    expect((await browser.send('delete', '/auth/accounts/oauth2/acme')).status).toBe(204);
    const last = await browser.send('delete', `/auth/passkeys/${second.id}`);
    expect([last.status, last.body.code]).toEqual([409, 'LAST_LOGIN_METHOD']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TestClock } from '../../support/test-app.js';
import { addAccount, type Client, createSeveralWaysApp, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';
import { reauthRequired, STALE_MS } from '../fresh-sign-in-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));
const HOUR_MS = 3_600_000;

describe.each(CASES)('fresh sign-in at a provider on %s, %s credential (docs/guides/account-security.md)', (engine, credential) => {
  let app: SeveralWaysApp;
  // The provider (a real oidc-provider) signs users in on the system clock; the application's clock starts an hour before it.
  const clock = new TestClock(new Date(Date.now() - HOUR_MS));
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine, credential, clock });
  });
  afterAll(() => app?.close());

  /** Moves the application's clock on; a jwt page then refreshes its access token. */
  const advance = async (browser: Client, ms: number) => {
    clock.advance(ms);
    if (credential === 'jwt') expect((await browser.send('POST', '/auth/refresh')).status).toBe(200);
  };
  /** POST /{method}/{provider}/reauth, then the provider's forms as `login`: the callback's answer. */
  const reauthAt = async (browser: Client, method: 'oidc' | 'oauth2', login: string) => {
    const start = await browser.send('POST', `/auth/${method}/${method === 'oidc' ? 'op' : 'acme'}/reauth`, {});
    expect(start.status).toBe(200);
    const { url } = (await start.json()) as { url: string };
    const authorization = new URL(url);
    expect(authorization.searchParams.get('prompt')).toBe('login');
    expect(authorization.searchParams.get('max_age')).toBe(method === 'oidc' ? '0' : null);
    return (await browser.agent.signIn(url, { app: app.url, login })).response;
  };

  it('unlinking is refused when stale, naming the linked identities; a new sign-in at the provider with that identity makes it fresh', async () => {
    addAccount(app, `fresh-${credential}`, { email: `fresh-${credential}@provider.test`, email_verified: true, name: 'Fresh' });
    const browser = app.browser();
    expect((await browser.signup(`fresh-${credential}@x.io`)).status).toBe(201);
    expect((await browser.link('oidc', `fresh-${credential}`)).status).toBe(302);
    expect((await browser.link('oauth2', `fresh-${credential}`)).status).toBe(302);
    await advance(browser, STALE_MS);
    const refused = await browser.unlink('oidc');
    expect([refused.status, await refused.json()]).toEqual([403, reauthRequired(['password', 'oauth2:acme', 'oidc:op'])]);
    for (const method of ['oidc', 'oauth2'] as const) {
      const callback = await reauthAt(browser, method, `fresh-${credential}`);
      expect([callback.status, callback.headers.get('location')]).toEqual([302, '/']);
      // No new credential: the one the browser holds now counts as freshly signed in (jwt: from its next refresh).
      expect(callback.headers.getSetCookie().filter((line) => /^svc_(session|refresh)=/.test(line))).toEqual([]);
    }
    if (credential === 'jwt') expect((await browser.send('POST', '/auth/refresh')).status).toBe(200);
    expect((await browser.unlink('oidc')).status).toBe(204);
  });

  it('an OpenID Connect auth_time older than the request: 403 OAUTH_REAUTH_REFUSED, the credential stays stale', async () => {
    addAccount(app, `late-${credential}`, { email: `late-${credential}@provider.test`, email_verified: true, name: 'Late' });
    const browser = app.browser();
    expect((await browser.signup(`late-${credential}@x.io`)).status).toBe(201);
    expect((await browser.link('oidc', `late-${credential}`)).status).toBe(302);
    // The application's clock now runs an hour ahead of the provider's: its sign-in predates the request.
    await advance(browser, 2 * HOUR_MS);
    const callback = await reauthAt(browser, 'oidc', `late-${credential}`);
    expect(callback.status).toBe(403);
    expect(await callback.json()).toMatchObject({ code: 'OAUTH_REAUTH_REFUSED', message: 'The provider did not sign you in again' });
    expect((await browser.unlink('oidc')).status).toBe(403);
    clock.advance(-2 * HOUR_MS);
  });

  it('an identity linked to another user, or to nobody: 403 OAUTH_REAUTH_REFUSED, the credential stays stale', async () => {
    addAccount(app, `owner-${credential}`, { email: `owner-${credential}@provider.test`, email_verified: true, name: 'Owner' });
    addAccount(app, `nobody-${credential}`, { email: `nobody-${credential}@provider.test`, email_verified: true, name: 'Nobody' });
    const owner = app.browser();
    expect((await owner.signup(`owner-${credential}@x.io`)).status).toBe(201);
    expect((await owner.link('oidc', `owner-${credential}`)).status).toBe(302);
    const browser = app.browser();
    expect((await browser.signup(`intruder-${credential}@x.io`)).status).toBe(201);
    expect((await browser.link('oidc', `nobody-${credential}`)).status).toBe(302);
    expect((await browser.unlink('oidc')).status).toBe(204);
    await advance(browser, STALE_MS);
    // Signed out at the provider: the next walk signs in there as another account.
    browser.agent.jar.clear(app.op.issuer);
    const elsewhere = await reauthAt(browser, 'oidc', `owner-${credential}`);
    expect([elsewhere.status, ((await elsewhere.json()) as { code: string }).code]).toEqual([403, 'OAUTH_REAUTH_REFUSED']);
    browser.agent.jar.clear(app.op.issuer);
    const unlinked = await reauthAt(browser, 'oidc', `nobody-${credential}`);
    expect([unlinked.status, ((await unlinked.json()) as { code: string }).code]).toEqual([403, 'OAUTH_REAUTH_REFUSED']);
    // Still stale: linking again needs a fresh sign-in.
    const link = await browser.send('POST', '/auth/oidc/op/link', {});
    expect([link.status, ((await link.json()) as { code: string }).code]).toEqual([403, 'REAUTH_REQUIRED']);
  });
});

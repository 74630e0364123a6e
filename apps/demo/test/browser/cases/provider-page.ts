import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DemoProcess } from '../../demo/demo-process.js';
import { type OidcProviderHarness, reserveLoopbackPort, startOidcProvider } from '../../../../../test/support/oauth/index.js';
import { startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { signInAtProvider } from '../support/provider-pages.js';
import { see } from '../support/see.js';
import type { WatchedPage } from '../support/watched-context.js';

const CLIENT_SECRET = 'Hs5Yp8Qm2Vx7Lc4Rt9Bn3Kw6Jd1Fg0Za';

type Strategy = 'oidc' | 'oauth2';
type Credential = 'session' | 'jwt';

/** OIDC_PROVIDERS or OAUTH2_PROVIDERS naming `provider` "corp". */
function providerSettings(strategy: Strategy, provider: OidcProviderHarness): Record<string, string> {
  if (strategy === 'oidc') {
    return { OIDC_PROVIDERS: JSON.stringify([{ name: 'corp', issuer: provider.issuer, client_id: 'demo', client_secret: CLIENT_SECRET }]) };
  }
  const { authorization_endpoint, token_endpoint, userinfo_endpoint } = provider.urls;
  return {
    OAUTH2_PROVIDERS: JSON.stringify([
      {
        name: 'corp',
        client_id: 'demo',
        client_secret: CLIENT_SECRET,
        authorization_url: authorization_endpoint,
        token_url: token_endpoint,
        userinfo_url: userinfo_endpoint,
        scopes: ['openid', 'email', 'profile'],
        profile: { id: 'sub', email: 'email', name: 'name', email_verified: 'email_verified' },
      },
    ]),
  };
}

/**
 * The page of the OAuth strategies: the whole login happens on oidc-provider's own pages (plain
 * OAuth 2.0 for oauth2), in the browser, and comes back to the page with the configured credential.
 */
describeInChromium('the demo page on the OAuth strategies, in Chromium', (chromium) => {
  const cases: [Strategy, Credential][] = [
    ['oidc', 'session'],
    ['oidc', 'jwt'],
    ['oauth2', 'jwt'],
  ];
  describe.each(cases)('AUTH_STRATEGY=%s, AUTH_OAUTH_CREDENTIAL=%s', (strategy, credential) => {
    let port: number;
    let provider: OidcProviderHarness;
    let demo: DemoProcess;
    let watched: WatchedPage;

    beforeAll(async () => {
      port = await reserveLoopbackPort();
      const url = `http://127.0.0.1:${port}`;
      provider = await startOidcProvider({
        plainOAuth2: strategy === 'oauth2',
        clients: [{ client_id: 'demo', client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/${strategy}/corp/callback`] }],
        accounts: { grace: { email: 'grace@example.io', email_verified: true, name: 'Grace' } },
      });
    });
    chromium.demoPageForEachTest(
      () => startPageDemo({ AUTH_STRATEGY: strategy, AUTH_OAUTH_CREDENTIAL: credential, ...providerSettings(strategy, provider) }, { port }),
      (opened) => ({ demo, watched } = opened),
    );
    afterAll(async () => {
      await provider?.close();
    });

    it('signs in through the provider\'s login and consent pages, comes back signed in, stays so across a reload, logs out', async () => {
      const { page } = watched;
      await page.goto(demo.baseUrl);
      await see(page.getByRole('status'), 'Not signed in');
      expect(await page.getByLabel('Password').count()).toBe(0);
      await page.getByRole('link', { name: 'Sign in with corp' }).click();

      await signInAtProvider(page, 'grace');
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(page.getByRole('status'), 'Signed in as grace@example.io');
      await see(page.getByRole('heading', { level: 1 }), 'Welcome, grace@example.io');
      await see(page.getByRole('region', { name: 'Ways to sign in' }).getByRole('listitem'), 'Linked as grace@example.io');
      expect(await page.getByRole('alert').count()).toBe(0);

      await page.reload();
      await see(page.getByRole('status'), 'Signed in as grace@example.io');
      await page.getByRole('button', { name: 'Log out' }).click();
      await see(page.getByRole('status'), 'Not signed in');
      await page.reload();
      await see(page.getByRole('status'), 'Not signed in');
      await page.getByRole('link', { name: 'Sign in with corp' }).waitFor();
    });
  });
});

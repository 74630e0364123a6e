import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { AUTH_ERRORS } from '#svc/auth';
import type { DemoProcess } from '../../demo/demo-process.js';
import { type DemoProviders, startDemoProviders } from '../../demo/demo-providers.js';
import { startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { refuseConsentAtProvider, signInAtProvider } from '../support/provider-pages.js';
import { see } from '../support/see.js';
import { verifyInPage } from '../support/verify-in-page.js';
import { nextUserId } from '../support/signed-in-user.js';

/** login name at the provider (= its `sub`) → claims; each test signs in as its own person. */
const PROVIDER_ACCOUNTS = {
  grace: { email: 'grace@example.io', email_verified: true, name: 'Grace' },
  linus: { email: 'linus@example.io', email_verified: true, name: 'Linus' },
  mary: { email: 'mary@example.io', email_verified: true, name: 'Mary' },
  joan: { email: 'joan@example.io', email_verified: true, name: 'Joan' },
};

/** Signs up and verifies the email from its mail, as the demo's default (optional verification) asks before a link. */
async function signUp(page: Page, demo: DemoProcess, email: string): Promise<string> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  const signedUp = nextUserId(page);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await see(page.getByRole('status'), `Signed in as ${email}`);
  await verifyInPage(page, demo, email);
  return signedUp;
}

/** A row of the signed-in card's "Ways to sign in" list. */
const wayRow = (page: Page, name: string) => page.getByRole('region', { name: 'Ways to sign in' }).getByRole('listitem').filter({ hasText: name });
const corpRow = (page: Page) => wayRow(page, 'corp');

/**
 * AUTH_LOGIN=password,oidc: the password form and "Sign in with corp" on one page; while signed
 * in, "Ways to sign in" links and unlinks the provider's identity, all through the page's own
 * controls and oidc-provider's own login and consent pages.
 */
describeInChromium('the demo page linking a provider identity, in Chromium', (chromium) => {
  describe.each(['session', 'jwt'] as const)('AUTH_LOGIN=password,oidc, AUTH_CREDENTIAL=%s', (credential) => {
    let providers: DemoProviders;
    let demo: DemoProcess;
    let page: Page;

    beforeAll(async () => {
      providers = await startDemoProviders(PROVIDER_ACCOUNTS);
    });
    // Room for every page load's /auth/refresh (jwt) of four tests in one limiter window: the verification pages added loads.
    chromium.demoPageForEachTest(
      () => startPageDemo({ AUTH_LOGIN: 'password,oidc', AUTH_CREDENTIAL: credential, OIDC_PROVIDERS: providers.env.OIDC_PROVIDERS, RATE_LIMIT_MAX: '40' }, { port: providers.port }),
      (opened) => ({ demo, page } = opened),
    );
    afterAll(async () => {
      await providers?.close();
    });

    it('signs up with a password, links corp through its pages, logs out, and "Sign in with corp" comes back to the same account', async () => {
      await page.goto(demo.baseUrl);
      await see(page.getByRole('status'), 'Not signed in');
      await page.getByRole('link', { name: 'Sign in with corp' }).waitFor();
      const accountId = await signUp(page, demo, 'ada@example.io');
      await see(corpRow(page), 'Not linked');

      await page.getByRole('button', { name: 'Link corp' }).click();
      await signInAtProvider(page, 'grace');
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(page.getByRole('status'), 'Signed in as ada@example.io');
      await see(corpRow(page), 'Linked as grace@example.io');
      await page.getByRole('button', { name: 'Unlink corp' }).waitFor();

      await page.getByRole('button', { name: 'Log out' }).click();
      await see(page.getByRole('status'), 'Not signed in');
      const signedInAgain = nextUserId(page);
      // The provider remembers this browser's login and consent: it sends it straight back.
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(page.getByRole('status'), 'Signed in as ada@example.io');
      expect(await signedInAgain).toBe(accountId);
    });

    it('shows a refused consent as the library\'s message in the alert, and takes ?error= out of the address', async () => {
      await page.goto(demo.baseUrl);
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await refuseConsentAtProvider(page, 'linus');
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(page.getByRole('alert'), AUTH_ERRORS.OAUTH_PROVIDER_ERROR[1]);
      await see(page.getByRole('status'), 'Not signed in');
      expect(page.url()).toBe(`${demo.baseUrl}/`);
    });

    it('unlinks the only identity of a user who has a password (by keyboard); the list updates and focus stays on the row\'s button', async () => {
      await page.goto(demo.baseUrl);
      await signUp(page, demo, 'barbara@example.io');
      await page.getByRole('button', { name: 'Link corp' }).click();
      await signInAtProvider(page, 'mary');
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(corpRow(page), 'Linked as mary@example.io');

      await page.getByRole('button', { name: 'Unlink corp' }).focus();
      await page.keyboard.press('Enter');
      await see(page.getByText('corp is unlinked.'), 'corp is unlinked.');
      await see(corpRow(page), 'Not linked');
      const focused = page.getByRole('button', { name: 'Link corp' });
      expect(await focused.evaluate((button) => button.ownerDocument.activeElement === button)).toBe(true);
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('refuses to unlink the only way in of a user the provider created: the 409\'s message shows in the alert', async () => {
      await page.goto(demo.baseUrl);
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await signInAtProvider(page, 'joan');
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(page.getByRole('status'), 'Signed in as joan@example.io');
      await see(corpRow(page), 'Linked as joan@example.io');
      await see(wayRow(page, 'Password'), 'Not set');

      const refused = page.waitForResponse((response) => response.request().method() === 'DELETE');
      await page.getByRole('button', { name: 'Unlink corp' }).click();
      const answer = await refused;
      expect(answer.status()).toBe(409);
      const { code, message } = (await answer.json()) as { code: string; message: string };
      expect(code).toBe('LAST_LOGIN_METHOD');
      await see(page.getByRole('alert'), message);
      await see(corpRow(page), 'Linked as joan@example.io');
    });
  });
});

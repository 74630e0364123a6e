import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { AUTH_ERRORS } from '#svc/auth';
import type { DemoProcess } from '../../demo/demo-process.js';
import { type DemoProviders, startDemoProviders } from '../../demo/demo-providers.js';
import { codeOfSecretAt } from '../../../../../test/two-step/codes-of-secret.js';
import { describeInChromium } from '../support/chromium.js';
import { ShiftableClock } from '../support/demo-with-clock.js';
import { startPageDemo } from '../support/page-demo.js';
import { signInAtProvider } from '../support/provider-pages.js';
import { see } from '../support/see.js';
import { verifyInPage } from '../support/verify-in-page.js';
import type { WatchedPage } from '../support/watched-context.js';

const PASSWORD = 'correct horse battery';
/** One TOTP step (RFC 6238 §4): each code comes from a later step than the one before, so none is a replay. */
const STEP_MS = 30_000;
const PROVIDER_ACCOUNTS = {
  ada: { email: 'ada@example.io', email_verified: true, name: 'Ada' },
  grace: { email: 'grace@example.io', email_verified: true, name: 'Grace' },
};

const twoStep = (page: Page) => page.getByRole('region', { name: 'Two-step login' });
const corpRow = (page: Page) => page.getByRole('region', { name: 'Ways to sign in' }).getByRole('listitem').filter({ hasText: 'corp' });

/**
 * AUTH_LOGIN=password,oidc with two-step login: a user who turned it on and signs in with corp is
 * asked for a code too (docs/guides/two-step.md: provider logins are challenged). The callback
 * comes back to /?mfa=required with the challenge cookie; the page shows the code step.
 */
describeInChromium('the demo page\'s two-step login after a provider login, in Chromium', (chromium) => {
  describe.each(['session', 'jwt'] as const)('AUTH_LOGIN=password,oidc, AUTH_CREDENTIAL=%s', (credential) => {
    let providers: DemoProviders;
    let demo: DemoProcess;
    let watched: WatchedPage;
    let page: Page;
    const clock = new ShiftableClock();

    const nextCode = (secret: string): string => {
      clock.shift(STEP_MS);
      return codeOfSecretAt(secret, clock.now());
    };

    /** Signs up `email`, verifies it, turns two-step login on, links corp as `login`, and logs out; the secret. */
    async function twoStepUserWithCorp(email: string, login: string): Promise<string> {
      await page.goto(demo.baseUrl);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await see(page.getByRole('status'), `Signed in as ${email}`);
      // The demo's optional verification refuses a way in before the mailbox is proven (docs/decisions/0022-account-pre-hijacking.md).
      await verifyInPage(page, demo, email);
      const part = twoStep(page);
      await part.getByLabel('Password').fill(PASSWORD);
      await part.getByRole('button', { name: 'Set up two-step login' }).click();
      await part.locator('code').waitFor();
      const secret = (await part.locator('code').innerText()).trim();
      await part.getByLabel('Code').fill(nextCode(secret));
      await part.getByRole('button', { name: 'Turn on two-step login' }).click();
      await part.getByRole('button', { name: 'I have saved them' }).click();
      await see(part, 'On.');

      await page.getByRole('button', { name: 'Link corp' }).click();
      await signInAtProvider(page, login);
      await page.waitForURL(`${demo.baseUrl}/`);
      await see(corpRow(page), `Linked as ${email}`);
      await page.getByRole('button', { name: 'Log out' }).click();
      await see(page.getByRole('status'), 'Not signed in');
      return secret;
    }

    beforeAll(async () => {
      providers = await startDemoProviders(PROVIDER_ACCOUNTS);
    });
    chromium.demoPageForEachTest(() => startPageDemo({ AUTH_LOGIN: 'password,oidc', AUTH_CREDENTIAL: credential, OIDC_PROVIDERS: providers.env.OIDC_PROVIDERS }, { port: providers.port, clock }), (opened) => ({ demo, watched, page } = opened));
    afterAll(async () => {
      await providers?.close();
    });

    it('"Sign in with corp" comes back to the code step, not signed in, with mfa=required out of the address; Verify signs in', async () => {
      const secret = await twoStepUserWithCorp('ada@example.io', 'ada');
      // The provider remembers this browser's login and consent: it sends it straight back.
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await page.getByRole('heading', { name: 'Two-step login' }).waitFor();
      await see(page.getByRole('status'), 'Not signed in');
      await see(page.getByText('One more step'), 'You signed in with your provider.');
      expect(page.url()).toBe(`${demo.baseUrl}/`);
      const code = page.getByLabel('Code');
      expect(await code.evaluate((input) => input.ownerDocument.activeElement === input)).toBe(true);
      expect((await watched.context.cookies()).map((cookie) => cookie.name).filter((name) => name === 'svc_session' || name === 'svc_refresh')).toEqual([]);

      await code.fill(nextCode(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('status'), 'Signed in as ada@example.io');
      await page.reload();
      await see(page.getByRole('status'), 'Signed in as ada@example.io');
    });

    it('an expired challenge: Verify says so and the log-in form comes back', async () => {
      await twoStepUserWithCorp('grace@example.io', 'grace');
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await page.getByLabel('Code').waitFor();
      clock.shift(6 * 60_000);
      await page.getByLabel('Code').fill('123456');
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('alert'), AUTH_ERRORS.MFA_CHALLENGE_INVALID[1]);
      await page.getByRole('heading', { name: 'Log in or create an account' }).waitFor();
    });
  });
});

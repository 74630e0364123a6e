import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Page, Response } from 'playwright-core';
import { AUTH_ERRORS } from '#svc/auth';
import type { DemoProcess } from '../../demo/demo-process.js';
import { type DemoProviders, startDemoProviders } from '../../demo/demo-providers.js';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { signInAtProvider } from '../support/provider-pages.js';
import { see } from '../support/see.js';
import { verifyInPage } from '../support/verify-in-page.js';
import { addVirtualAuthenticator, type VirtualAuthenticator } from '../support/virtual-authenticator.js';
import type { WatchedPage } from '../support/watched-context.js';

const answerOf = (page: Page, path: string): Promise<Response> => page.waitForResponse((response) => new URL(response.url()).pathname === path);

const passkeyList = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

/** The id GET /auth/passkeys gave the passkey named `name` (its Remove button carries it). */
const passkeyIdOf = (page: Page, name: string): Promise<string | null> =>
  passkeyList(page).getByRole('button', { name: `Remove ${name}` }).getAttribute('data-passkey');

/** Signs up and verifies the email from its mail, as the demo's default (optional verification) asks before a passkey. */
async function signUp(page: Page, demo: DemoProcess, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await see(page.getByRole('status'), `Signed in as ${email}`);
  await verifyInPage(page, demo, email);
}

/** Adds a passkey with the keyboard: its name typed, Enter in the field (the form's one button). */
async function addPasskey(page: Page, name: string): Promise<void> {
  const registered = answerOf(page, '/auth/passkeys/register');
  await page.getByLabel('Passkey name').fill(name);
  await page.getByLabel('Passkey name').press('Enter');
  expect((await registered).status()).toBe(201);
  await see(page.locator('#notice'), `Passkey "${name}" is added`);
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await see(page.getByRole('status'), 'Not signed in');
}

/**
 * Passkeys through the demo page in Chromium, its authenticator a virtual one (the DevTools
 * protocol's, CTAP2 with resident keys and user verification). The demo's AUTH_BASE_URL is on
 * `localhost`: WebAuthn takes its relying party id from that host, and refuses an IP address.
 */
describeInChromium('the demo page with passkeys, in Chromium', (chromium) => {
  // session in the seed's shape (npm start's default), jwt in the AUTH_LOGIN shape.
  describe.each([
    ['session', { AUTH_STRATEGY: 'session' }],
    ['jwt', { AUTH_LOGIN: 'password', AUTH_CREDENTIAL: 'jwt' }],
  ] as const)('credential %s', (credential, env) => {
    let demo: DemoProcess;
    let origin: string;
    let watched: WatchedPage;
    let page: Page;
    let authenticator: VirtualAuthenticator;

    chromium.demoPageForEachTest(
      async () => {
        const port = await reserveLoopbackPort();
        origin = `http://localhost:${port}`;
        return startPageDemo({ ...env, AUTH_BASE_URL: origin }, { port });
      },
      (opened) => ({ demo, watched, page } = opened),
    );
    beforeEach(async () => {
      authenticator = await addVirtualAuthenticator(watched.context, page);
    });

    it('signs up with a password, adds a passkey, logs out, signs in with it (no email typed) and sees the account; removes it, and it no longer signs in', async () => {
      const email = `ada-${credential}@example.io`;
      await page.goto(origin);
      await see(page.getByRole('status'), 'Not signed in');
      await signUp(page, demo, email);
      await see(passkeyList(page), 'No passkey yet');

      await addPasskey(page, 'Work laptop');
      const row = passkeyList(page).getByRole('listitem').filter({ hasText: 'Work laptop' });
      await see(row, 'not used yet');
      const held = await authenticator.credentials();
      expect(held).toEqual([expect.objectContaining({ isResidentCredential: true, rpId: 'localhost' })]);

      await logOut(page);
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe('');
      const login = answerOf(page, '/auth/passkeys/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const answer = await login;
      expect(answer.status()).toBe(200);
      // The credential a password login gives: a user body with the session cookie, or a token body with jwt.
      expect(Object.keys((await answer.json()) as object)).toContain(credential === 'jwt' ? 'access_token' : 'email');
      await see(page.getByRole('status'), `Signed in as ${email}`);
      await see(page.locator('#user-email'), email);
      await see(row, 'last used');

      await row.getByRole('button', { name: 'Remove Work laptop' }).click();
      await see(page.locator('#notice'), 'Passkey "Work laptop" is removed.');
      await see(passkeyList(page), 'No passkey yet');
      // Its button is gone: focus is on the list's heading, not lost to the page's start.
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('passkeys-title');

      // The authenticator still offers it; the server no longer knows it.
      await logOut(page);
      const refused = answerOf(page, '/auth/passkeys/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      expect((await refused).status()).toBe(401);
      await see(page.getByRole('alert'), AUTH_ERRORS.PASSKEY_INVALID[1]);
      await see(page.getByRole('status'), 'Not signed in');
    });

    it('stays signed in across a reload after a passkey login, its list intact', async () => {
      const email = `grace-${credential}@example.io`;
      await page.goto(origin);
      await signUp(page, demo, email);
      await addPasskey(page, 'Phone');
      await logOut(page);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await see(page.getByRole('status'), `Signed in as ${email}`);
      await page.reload();
      await see(page.getByRole('status'), `Signed in as ${email}`);
      await see(passkeyList(page).getByRole('listitem'), 'Phone');
    });
  });

  /**
   * A real refusal: a user created by "Sign in with corp" has no password; once corp is unlinked,
   * their passkey is their only way in, and the page says in plain words why it stays.
   */
  describe.each(['session', 'jwt'] as const)('AUTH_LOGIN=password,oidc, AUTH_CREDENTIAL=%s', (credential) => {
    let providers: DemoProviders;
    let watched: WatchedPage;
    let page: Page;

    beforeAll(async () => {
      providers = await startDemoProviders({ mary: { email: 'mary@example.io', email_verified: true, name: 'Mary' } }, 'localhost');
    });
    chromium.demoPageForEachTest(
      () => startPageDemo({ AUTH_LOGIN: 'password,oidc', AUTH_CREDENTIAL: credential, AUTH_BASE_URL: providers.baseUrl, ...providers.env }, { port: providers.port }),
      (opened) => ({ watched, page } = opened),
    );
    afterAll(async () => {
      await providers?.close();
    });
    beforeEach(async () => {
      await addVirtualAuthenticator(watched.context, page);
    });

    it('refuses to remove the passkey that is the only way in (409 LAST_LOGIN_METHOD), in plain words, and keeps it', async () => {
      await page.goto(providers.baseUrl);
      await page.getByRole('link', { name: 'Sign in with corp' }).click();
      await signInAtProvider(page, 'mary');
      await see(page.getByRole('status'), 'Signed in as mary@example.io');
      await addPasskey(page, 'Only key');
      await page.getByRole('button', { name: 'Unlink corp' }).click();
      await see(page.locator('#notice'), 'corp is unlinked.');

      const refused = answerOf(page, '/auth/passkeys/' + (await passkeyIdOf(page, 'Only key')));
      await passkeyList(page).getByRole('button', { name: 'Remove Only key' }).click();
      expect((await refused).status()).toBe(409);
      await see(page.getByRole('alert'), '"Only key" is your only way to sign in, so it stays.');
      await see(passkeyList(page).getByRole('listitem'), 'Only key');

      // Still the way in.
      await logOut(page);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await see(page.getByRole('status'), 'Signed in as mary@example.io');
    });
  });
});

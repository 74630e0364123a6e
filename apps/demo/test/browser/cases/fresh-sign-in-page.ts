import { beforeEach, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { reserveLoopbackPort } from '../../../../../test/support/listen.js';
import { describeInChromium } from '../support/chromium.js';
import { type DemoWithClock, ShiftableClock } from '../support/demo-with-clock.js';
import { startPageDemo } from '../support/page-demo.js';
import { see } from '../support/see.js';
import { addVirtualAuthenticator } from '../support/virtual-authenticator.js';
import type { WatchedPage } from '../support/watched-context.js';

const SIXTEEN_MINUTES = 16 * 60_000;
const PASSWORD = 'correct horse battery';

const answerOf = (page: Page, path: string) => page.waitForResponse((response) => new URL(response.url()).pathname === path);

/**
 * Fresh sign-in on the demo page (docs/guides/account-security.md): a change that meets 403
 * REAUTH_REQUIRED opens the "Confirm it's you" dialog; the password confirms and the change goes
 * ahead. Time passes at the server only (the demo's AUTH_CLOCK, shifted): the session stays valid,
 * its sign-in grows old past AUTH_REAUTH_MAX_AGE_SECONDS (the default, 900).
 */
describeInChromium('the demo page asks "Confirm it\'s you" before a change that needs a fresh sign-in, in Chromium', (chromium) => {
  let demo: DemoWithClock;
  let watched: WatchedPage;
  let page: Page;
  chromium.demoPageForEachTest(
    async () => {
      const clock = new ShiftableClock();
      const port = await reserveLoopbackPort();
      // Passkeys need a host name (localhost), and no verified email here (AUTH_EMAIL_VERIFICATION=off).
      const started = await startPageDemo({ AUTH_STRATEGY: 'session', AUTH_BASE_URL: `http://localhost:${port}`, AUTH_EMAIL_VERIFICATION: 'off' }, { port, clock });
      return { ...started, baseUrl: `http://localhost:${port}`, clock };
    },
    (opened) => ({ demo, watched, page } = opened),
  );
  beforeEach(async () => {
    await addVirtualAuthenticator(watched.context, page);
  });

  it('adding a passkey after 16 minutes: the dialog refuses a wrong password, takes the right one, and the passkey is added', async () => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').fill('grace@example.io');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByRole('status'), 'Signed in as grace@example.io');

    demo.clock.shift(SIXTEEN_MINUTES);
    const refused = answerOf(page, '/auth/passkeys/register/options');
    await page.getByLabel('Passkey name').fill('Laptop');
    await page.getByLabel('Passkey name').press('Enter');
    expect((await refused).status()).toBe(403);

    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.waitFor({ state: 'visible' });
    // The dialog takes the focus to its password field.
    await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe('reauth-password');
    await dialog.getByLabel('Password').fill('not my password');
    const wrong = answerOf(page, '/auth/reauth');
    await dialog.getByRole('button', { name: "Confirm it's you" }).click();
    expect((await wrong).status()).toBe(401);
    await see(dialog.getByRole('alert'), 'That password is not right. Try again.');

    const confirmed = answerOf(page, '/auth/reauth');
    const registered = answerOf(page, '/auth/passkeys/register');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: "Confirm it's you" }).click();
    expect((await confirmed).status()).toBe(204);
    expect((await registered).status()).toBe(201);
    await see(page.locator('#notice'), 'Passkey "Laptop" is added');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('Cancel closes the dialog and the refusal stands', async () => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('ada@example.io');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByRole('status'), 'Signed in as ada@example.io');
    demo.clock.shift(SIXTEEN_MINUTES);
    await page.getByLabel('Passkey name').fill('Phone');
    await page.getByLabel('Passkey name').press('Enter');
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await see(page.getByRole('alert').first(), 'Confirm it is you: sign in again');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });
});

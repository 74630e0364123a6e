import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { AUTH_ERRORS } from '#svc/auth';
import { codeOfSecretAt, wrongCodeAt } from '../../../../../test/two-step/codes-of-secret.js';
import { describeInChromium } from '../support/chromium.js';
import { descriptionOf } from '../support/described-by.js';
import { type DemoWithClock, startDemoWithClock } from '../support/demo-with-clock.js';
import type { DemoProcess } from '../../demo/demo-process.js';
import { see } from '../support/see.js';
import { verifyInPage } from '../support/verify-in-page.js';
import type { WatchedPage } from '../support/watched-context.js';

const PASSWORD = 'correct horse battery';
/** One TOTP step (RFC 6238 §4, X = 30 s): a code is accepted once per step, so each use moves the server's clock on. */
const STEP_MS = 30_000;

/** The signed-in card's "Two-step login" part. */
const twoStep = (page: Page): Locator => page.getByRole('region', { name: 'Two-step login' });

/** The session or refresh cookie, if the browser holds one: what only a finished login gives. */
async function credentialCookies(watched: WatchedPage): Promise<string[]> {
  return (await watched.context.cookies()).map((cookie) => cookie.name).filter((name) => name === 'svc_session' || name === 'svc_refresh');
}

/** Signs up and verifies the email from its mail, as the demo's default (optional verification) asks before two-step login. */
async function signUp(page: Page, demo: DemoProcess, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await see(page.getByRole('status'), `Signed in as ${email}`);
  await verifyInPage(page, demo, email);
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await see(page.getByRole('status'), 'Not signed in');
}

/**
 * The demo's "Two-step login" driven as a person would, by label, role and name only: the secret
 * is read off the page and each code computed from it here (an RFC 6238 implementation of the
 * tests', not the library's), at the server's clock, which the test moves one step per code.
 */
describeInChromium('the demo page\'s two-step login, in Chromium', (chromium) => {
  describe.each(['session', 'jwt'] as const)('AUTH_STRATEGY=%s', (strategy) => {
    let demo: DemoWithClock;
    let watched: WatchedPage;
    let page: Page;

    /** The code of the next step: the server's clock moves on 30 s first, so no code is a replay. */
    const nextCode = (secret: string): string => {
      demo.clock.shift(STEP_MS);
      return codeOfSecretAt(secret, demo.clock.now());
    };

    /** Signs up `email` and turns two-step login on from the page; the secret it showed, and the recovery codes. */
    async function turnOn(email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
      await page.goto(demo.baseUrl);
      await signUp(page, demo, email);
      const part = twoStep(page);
      await see(part, 'Off.');
      await part.getByLabel('Password').fill(PASSWORD);
      await part.getByRole('button', { name: 'Set up two-step login' }).click();

      const qr = part.getByRole('img', { name: /QR code/ });
      await qr.waitFor();
      expect(await qr.evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
      const secret = (await part.locator('code').innerText()).trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

      await part.getByLabel('Code').fill(nextCode(secret));
      await part.getByRole('button', { name: 'Turn on two-step login' }).click();
      await see(page.getByText('Two-step login is on.'), 'Two-step login is on.');
      const recoveryCodes = await part.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      return { secret, recoveryCodes };
    }

    chromium.demoPageForEachTest(() => startDemoWithClock({ AUTH_STRATEGY: strategy }), (opened) => ({ demo, watched, page } = opened));

    it('turns two-step login on (QR code, secret, Code), copies the recovery codes, then a login asks for a Code and Verify signs in', async () => {
      await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.baseUrl });
      const email = `ada-${strategy}@example.io`;
      const { secret, recoveryCodes } = await turnOn(email);

      await twoStep(page).getByRole('button', { name: 'Copy' }).click();
      await see(page.getByText('recovery codes are copied'), 'The 10 recovery codes are copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${recoveryCodes.join('\n')}\n`);
      await twoStep(page).getByRole('button', { name: 'I have saved them' }).click();
      await see(twoStep(page), 'On.');
      expect(await twoStep(page).getByRole('listitem').count()).toBe(0);

      await logOut(page);
      await logIn(page, email);
      await page.getByRole('heading', { name: 'Two-step login' }).waitFor();
      const code = page.getByLabel('Code');
      expect(await code.evaluate((input) => input.ownerDocument.activeElement === input)).toBe(true);
      expect(await descriptionOf(code)).toEqual(['The 6 digits your authenticator app shows for svc demo.']);
      expect(await page.getByRole('status').innerText()).toBe('Not signed in');
      expect(await credentialCookies(watched)).toEqual([]);

      await code.fill(wrongCodeAt(secret, demo.clock.now()));
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('alert'), AUTH_ERRORS.MFA_CODE_INVALID[1]);
      expect(await page.getByRole('status').innerText()).toBe('Not signed in');

      // Enter submits the form it is in; a code typed as apps show it, in two groups, is taken.
      const right = nextCode(secret);
      await code.fill(`${right.slice(0, 3)} ${right.slice(3)}`);
      await code.press('Enter');
      await see(page.getByRole('status'), `Signed in as ${email}`);
      expect(await page.getByRole('alert').count()).toBe(0);
      await see(twoStep(page), 'On.');
      await page.reload();
      await see(page.getByRole('status'), `Signed in as ${email}`);
    });

    it('signs in once with a recovery code instead of a code; the same recovery code is refused the next time; Cancel, and an expired challenge, go back to the log-in form', async () => {
      const email = `grace-${strategy}@example.io`;
      const { recoveryCodes } = await turnOn(email);
      await twoStep(page).getByRole('button', { name: 'I have saved them' }).click();
      await logOut(page);

      await logIn(page, email);
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      expect(await page.getByLabel('Code', { exact: true }).count()).toBe(0);
      await page.getByLabel('Recovery code').fill(recoveryCodes[3]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('status'), `Signed in as ${email}`);
      await logOut(page);

      await logIn(page, email);
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[3]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('alert'), AUTH_ERRORS.MFA_CODE_INVALID[1]);
      expect(await page.getByRole('status').innerText()).toBe('Not signed in');

      await page.getByRole('button', { name: 'Use a code from your app instead' }).click();
      await page.getByLabel('Code').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'Log in or create an account' }).waitFor();
      expect(await page.getByLabel('Code').count()).toBe(0);
      await logIn(page, email);
      await page.getByLabel('Code', { exact: true }).waitFor();

      // Past its 5 minutes the challenge is gone: the page says so and the log-in form comes back.
      demo.clock.shift(6 * 60_000);
      await page.getByLabel('Code').fill('123456');
      await page.getByRole('button', { name: 'Verify' }).click();
      await see(page.getByRole('alert'), AUTH_ERRORS.MFA_CHALLENGE_INVALID[1]);
      expect(await page.getByRole('alert').innerText()).toBe(AUTH_ERRORS.MFA_CHALLENGE_INVALID[1]);
      await page.getByRole('heading', { name: 'Log in or create an account' }).waitFor();
      expect(await page.getByLabel('Code').count()).toBe(0);
    });

    it('makes new recovery codes (the old ones stop working) and turns two-step login off with password and code', async () => {
      const email = `linus-${strategy}@example.io`;
      const { secret, recoveryCodes } = await turnOn(email);
      await twoStep(page).getByRole('button', { name: 'I have saved them' }).click();

      const part = twoStep(page);
      await part.getByLabel('Password').fill(PASSWORD);
      await part.getByLabel('Code').fill(nextCode(secret));
      await part.getByRole('button', { name: 'Make new recovery codes' }).click();
      await see(page.getByText('New recovery codes are made'), 'the old ones no longer work');
      const fresh = await part.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
      await part.getByRole('button', { name: 'I have saved them' }).click();

      await part.getByLabel('Password').fill(PASSWORD);
      await part.getByLabel('Code').fill(nextCode(secret));
      await part.getByRole('button', { name: 'Turn off two-step login' }).click();
      await see(page.getByText('Two-step login is off.'), 'password only');
      await see(part, 'Off.');

      await logOut(page);
      await logIn(page, email);
      await see(page.getByRole('status'), `Signed in as ${email}`);
    });
  });
});

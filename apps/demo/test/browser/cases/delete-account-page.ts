import { beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { eventually } from '../../../../../test/support/eventually.js';
import { suiteDemo } from '../support/suite-demos.js';
import { describeInChromium } from '../support/chromium.js';
import { see } from '../support/see.js';

const PASSWORD = 'correct horse battery';
const CREDENTIALS = ['session', 'jwt'] as const;

/**
 * The signed-in card's `Delete account` (docs/guides/account-security.md), on the built demo with
 * each credential, driven by role and name only: a confirmation step, then the signed-out page, and
 * the account_deleted notice on the demo's MAIL lines.
 */
describeInChromium("the demo page's Delete account, in Chromium", (chromium) => {
  const demos = {} as Record<(typeof CREDENTIALS)[number], DemoProcess>;

  beforeAll(async () => {
    [demos.session, demos.jwt] = await Promise.all([suiteDemo(), suiteDemo({ AUTH_STRATEGY: 'jwt' })]);
  });

  const signUp = async (page: Page, demo: DemoProcess, email: string) => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByRole('status'), `Signed in as ${email}`);
  };

  /** The MAIL lines to `to` of kind `security_notice`, from index `since` on. */
  const noticesTo = (demo: DemoProcess, since: number, to: string) =>
    demo.lines
      .slice(since)
      .filter((line) => line.startsWith('MAIL '))
      .map((line) => JSON.parse(line.slice('MAIL '.length)) as Record<string, unknown>)
      .filter((mail) => mail.to === to && mail.kind === 'security_notice');

  it.each(CREDENTIALS)('%s: Delete account asks first; Cancel keeps the account; Yes, delete my account signs out for good', async (credential) => {
    const demo = demos[credential];
    const email = `leaving-${credential}@example.io`;
    const { page } = await chromium.openPage();
    await signUp(page, demo, email);

    const deleteButton = page.getByRole('button', { name: 'Delete account', exact: true });
    await expect(deleteButton.getAttribute('aria-expanded')).resolves.toBe('false');
    await deleteButton.click();
    await expect(deleteButton.getAttribute('aria-expanded')).resolves.toBe('true');
    const confirmation = page.getByRole('group', { name: 'Delete your account and everything in it? This cannot be undone.' });
    await see(confirmation, 'This cannot be undone.');
    // The keyboard lands on the safe answer.
    await expect(page.getByRole('button', { name: 'Cancel' }).evaluate((button) => button === button.ownerDocument.activeElement)).resolves.toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmation.isHidden()).resolves.toBe(true);
    await see(page.getByRole('status'), `Signed in as ${email}`);

    const since = demo.lines.length;
    await deleteButton.click();
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    await see(page.getByRole('status'), 'Not signed in');
    await see(page.getByText('Your account is deleted.'), 'Your account is deleted.');
    await eventually('the account_deleted notice on a MAIL line', () => noticesTo(demo, since, email).length === 1);
    expect(noticesTo(demo, since, email)).toEqual([{ to: email, kind: 'security_notice', notice: 'account_deleted' }]);

    // Gone for good: a reload finds nobody signed in, and the password no longer signs in.
    await page.reload();
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('alert'), 'Invalid credentials');
  });
});

import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { mailedLink } from './mailed-link.js';
import { see } from './see.js';

/**
 * Opens the verification link the signup of `email` mailed, in the same browser, and presses
 * `Verify email`: the account stays signed in there and may now add ways in (a provider link, a
 * passkey, two-step login; docs/decisions/0022-account-pre-hijacking.md). Ends on the home page, signed in.
 */
export async function verifyInPage(page: Page, demo: DemoProcess, email: string): Promise<void> {
  await page.goto(await mailedLink(demo, 0, email, 'email_verification'));
  await page.getByRole('button', { name: 'Verify email' }).click();
  await see(page.getByText('Your email is verified.'), 'Your email is verified.');
  await see(page.getByRole('status'), `Signed in as ${email}`);
}

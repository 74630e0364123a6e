import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { eventually } from '../../../../../test/support/eventually.js';
import { registerAccount, startPageDemo } from '../support/page-demo.js';
import { suiteDemo } from '../support/suite-demos.js';
import { describeInChromium } from '../support/chromium.js';
import { descriptionOf, seeDescribed } from '../support/described-by.js';
import { mailedLink } from '../support/mailed-link.js';
import { see } from '../support/see.js';

const PASSWORD = 'correct horse battery';
const CREDENTIALS = ['session', 'jwt'] as const;

/**
 * The signed-in card's email area (verification link, change of email) and device list, on the
 * built demo (AUTH_EMAIL_VERIFICATION=optional, its default), driven by label, role and name only.
 */
describeInChromium("the demo page's email area and device list, in Chromium", (chromium) => {
  const demos = {} as Record<(typeof CREDENTIALS)[number], DemoProcess>;

  beforeAll(async () => {
    [demos.session, demos.jwt] = await Promise.all([suiteDemo(), suiteDemo({ AUTH_STRATEGY: 'jwt' })]);
  });

  /** Another device's browser: the list names it from its User-Agent ("Firefox 140 on Windows"), not with the raw header. */
  const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';

  /** A fresh browser profile: another device. */
  const openDevice = async (userAgent?: string): Promise<Page> => (await chromium.openPage({ userAgent })).page;

  /** `Log in` or `Sign up` on the page's form (a signup through the API would sign one more device in). */
  const enter = async (page: Page, demo: DemoProcess, email: string, button: 'Log in' | 'Sign up' = 'Log in') => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: button }).click();
    await see(page.getByRole('status'), `Signed in as ${email}`);
  };

  // Not a labelled region: a label "Your email" would be one more element that getByLabel('Email') finds.
  const emailArea = (page: Page) => page.locator('section').filter({ has: page.getByRole('heading', { name: 'Your email' }) });
  const deviceList = (page: Page) => page.getByRole('region', { name: 'Signed-in devices' });
  const deviceItem = (page: Page, text: string) => deviceList(page).getByRole('listitem').filter({ hasText: text });

  /** Refused at its next request: the page shows the signed-out form and says why. */
  const seeSessionEnded = async (page: Page) => {
    await see(page.getByRole('status'), 'Not signed in');
    await see(page.getByRole('alert'), 'Your session has ended. Log in again.');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  };

  it('sends a verification link from the page; its MAIL link verifies the email and the page says so', async () => {
    const demo = demos.session;
    const page = await openDevice();
    await enter(page, demo, 'edsger@example.io', 'Sign up');
    await see(emailArea(page), 'edsger@example.io is not verified yet');
    const signupLink = await mailedLink(demo, 0, 'edsger@example.io', 'email_verification');

    const since = demo.lines.length;
    await emailArea(page).getByRole('button', { name: 'Send verification link' }).click();
    await see(page.getByText('A new verification link is on its way to edsger@example.io.'), 'Links sent before it no longer work.');
    const link = await mailedLink(demo, since, 'edsger@example.io', 'email_verification');
    expect(link).not.toBe(signupLink);

    await page.goto(link);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await see(page.getByText('Your email is verified.'), 'Your email is verified.');
    await see(emailArea(page), 'edsger@example.io is verified.');
    expect(await page.getByRole('button', { name: 'Send verification link' }).count()).toBe(0);
    await page.reload();
    await see(emailArea(page), 'edsger@example.io is verified.');

    // The signup's link was superseded by the one the page asked for.
    await page.goto(signupLink);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await see(page.getByRole('alert'), 'Verification token is invalid or expired');
  });

  it('says how long to wait when sending verification links is rate limited (429 with Retry-After)', async () => {
    const limited = await startPageDemo({ RATE_LIMIT_MAX: '1' });
    try {
      await registerAccount(limited, 'alan@example.io', PASSWORD);
      const page = await openDevice();
      await enter(page, limited, 'alan@example.io');
      const send = emailArea(page).getByRole('button', { name: 'Send verification link' });
      await send.click();
      await see(page.getByText('A new verification link is on its way to alan@example.io.'), 'alan@example.io');
      await send.click();
      // Retry-After is at most the 60-second window: under a minute in seconds, a full one as "1 minute".
      await see(page.getByRole('alert'), /^Too many attempts\. Try again in (\d+ seconds?|1 minute)\.$/);
      await see(page.getByRole('status'), 'Signed in as alan@example.io');
    } finally {
      await limited.stop();
    }
  });

  describe.each(CREDENTIALS)('with the %s credential', (credential) => {
    it("lists both devices, signs the other one out from the first one's list; the other is refused at its next request", async () => {
      const demo = demos[credential];
      const email = `linus.${credential}@example.io`;
      const other = await openDevice(FIREFOX_ON_WINDOWS);
      await enter(other, demo, email, 'Sign up');
      const page = await openDevice();
      await enter(page, demo, email);

      await see(deviceList(page), '2 devices are signed in, this one included.');
      await see(deviceItem(page, 'This device'), 'Signed in');
      expect(await deviceItem(page, 'This device').getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(0);
      // By keyboard: the button names the action, its description the device.
      const signOut = deviceItem(page, 'Firefox 140 on Windows').getByRole('button', { name: 'Sign out', exact: true });
      expect(await descriptionOf(signOut)).toEqual([expect.stringContaining('Firefox 140 on Windows')]);
      await signOut.focus();
      await page.keyboard.press('Enter');
      await see(page.getByText('That device is signed out.'), 'That device is signed out.');
      await see(deviceList(page), 'Only this device is signed in.');
      // Its button is gone with its line: the list's heading has the focus.
      await eventually('the heading has the focus', () => page.getByRole('heading', { name: 'Signed-in devices' }).evaluate((heading) => heading === heading.ownerDocument.activeElement));
      expect(await deviceList(page).getByRole('listitem').count()).toBe(1);

      // The other device's next request, whatever it is, finds its credential ended.
      await other.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await seeSessionEnded(other);
      await other.reload();
      await see(other.getByRole('status'), 'Not signed in');

      await page.reload();
      await see(page.getByRole('status'), `Signed in as ${email}`);
      await see(deviceList(page), 'Only this device is signed in.');
    });

    it('signs every other device out with "Sign out everywhere else"', async () => {
      const demo = demos[credential];
      const email = `mary.${credential}@example.io`;
      const second = await openDevice('Second browser/1.0');
      await enter(second, demo, email, 'Sign up');
      const third = await openDevice('Third browser/1.0');
      await enter(third, demo, email);
      const page = await openDevice();
      await enter(page, demo, email);
      await see(deviceList(page), '3 devices are signed in, this one included.');

      // While its request runs (held here), the pressed button alone is aria-disabled, and keeps the focus.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/auth/sessions', async (route) => {
        if (route.request().method() === 'DELETE') await held;
        await route.continue();
      });
      const everywhere = page.getByRole('button', { name: 'Sign out everywhere else' });
      await everywhere.focus();
      await page.keyboard.press('Enter');
      expect(await everywhere.getAttribute('aria-disabled')).toBe('true');
      expect(await everywhere.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
      expect(await deviceList(page).getByRole('button', { name: 'Sign out', exact: true }).evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-disabled')))).toEqual([null, null]);
      release();
      await see(page.getByText('Every other device is signed out.'), 'Every other device is signed out.');
      await eventually('the button is enabled once its request is done', async () => (await everywhere.getAttribute('aria-disabled')) === null);
      await see(deviceList(page), 'Only this device is signed in.');
      await see(page.getByRole('status'), `Signed in as ${email}`);

      await second.reload();
      await see(second.getByRole('status'), 'Not signed in');
      await third.getByRole('button', { name: 'Send verification link' }).click();
      await seeSessionEnded(third);
    });
  });

  it('changes the email through the form: field messages next to the fields, the MAIL link confirms, the new address logs in', async () => {
    const demo = demos.session;
    await registerAccount(demo, 'hedy@example.io', PASSWORD);
    const page = await openDevice();
    await enter(page, demo, 'hedy@example.io');
    const newEmail = page.getByLabel('New email');
    const currentPassword = page.getByLabel('Current password');
    const change = page.getByRole('button', { name: 'Change email' });

    await newEmail.fill('not an address');
    await currentPassword.fill(PASSWORD);
    await change.click();
    await seeDescribed(newEmail, 'Enter an email address like name@example.com');

    await newEmail.fill('hedy.lamarr@example.io');
    await currentPassword.fill('not the password');
    await change.click();
    await seeDescribed(currentPassword, 'This is not your current password');

    const since = demo.lines.length;
    await currentPassword.fill(PASSWORD);
    await change.click();
    await see(page.getByText('A message is on its way to hedy.lamarr@example.io'), 'Until then you log in as hedy@example.io.');
    expect(await newEmail.inputValue()).toBe('');
    const link = await mailedLink(demo, since, 'hedy.lamarr@example.io', 'email_change');

    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await see(page.getByRole('status'), 'Signed in as hedy.lamarr@example.io');
    await see(emailArea(page), 'hedy.lamarr@example.io is verified.');

    await page.getByRole('button', { name: 'Log out' }).click();
    await see(page.getByRole('status'), 'Not signed in');
    await enter(page, demo, 'hedy.lamarr@example.io');
    await see(deviceList(page), 'Only this device is signed in.');
  });
});

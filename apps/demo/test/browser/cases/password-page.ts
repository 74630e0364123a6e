import { expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { registerAccount } from '../support/page-demo.js';
import { suiteDemo } from '../support/suite-demos.js';
import { describeInChromium } from '../support/chromium.js';
import { eventually } from '../../../../../test/support/eventually.js';
import { screenshotIfAsked } from '../support/screenshot.js';
import { see } from '../support/see.js';
import { openWatchedPage, type WatchedPage } from '../support/watched-context.js';

/** The page of `npm start` (session strategy), driven as a person would: by label, role and name only. */
describeInChromium('the demo page on the session strategy, in Chromium', (chromium) => {
  let demo: DemoProcess;
  let watched: WatchedPage;
  let page: Page;
  chromium.sharedDemoPageForEachTest(() => suiteDemo(), (opened) => ({ demo, watched, page } = opened));

  it('signs up, says who is signed in, keeps them signed in across a reload, logs out', async () => {
    await page.setViewportSize({ width: 720, height: 640 });
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').fill('ada@example.io');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Display name').fill('Ada');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await see(page.getByRole('status'), 'Signed in as ada@example.io');
    const welcome = page.getByRole('heading', { name: 'Welcome, Ada' });
    expect(await welcome.evaluate((heading) => heading.ownerDocument.activeElement === heading)).toBe(true);
    // The signed-in card on a wide screen, its groups side by side (docs/demo-page.png), once its lists are filled.
    await screenshotIfAsked(page, 'demo-page.png', { width: 1100, height: 900 }, page.getByText('Only this device is signed in.'));

    await page.reload();
    await see(page.getByRole('status'), 'Signed in as ada@example.io');
    await page.getByRole('button', { name: 'Log out' }).click();
    await see(page.getByRole('status'), 'Not signed in');
    await see(page.getByText('You are logged out.'), 'You are logged out.');
    await page.reload();
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').waitFor();
  });

  it('shows a refused login\'s message in an alert; Enter in Password logs in', async () => {
    await registerAccount(demo, 'grace@example.io', 'right password');
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('grace@example.io');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('alert'), 'Invalid credentials');
    expect(await page.getByRole('status').innerText()).toBe('Not signed in');

    await page.getByLabel('Password').fill('right password');
    await page.getByLabel('Password').press('Enter');
    await see(page.getByRole('status'), 'Signed in as grace@example.io');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('sends a reset link; its page sets a new password; the old one stops working and the new one logs in', async () => {
    await registerAccount(demo, 'linus@example.io', 'old password');
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('linus@example.io');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await see(page.getByText('a link to set a new password is on its way'), 'linus@example.io');

    const mail = await demo.waitForLine('MAIL ', (line) => line.to === 'linus@example.io' && line.kind === 'password_reset');
    const link = String(mail.link);
    await page.goto(link);
    await page.getByLabel('New password').fill('brand new password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await see(page.getByText('Your password is changed'), 'Log in with the new password');
    expect(page.url()).toBe(`${demo.baseUrl}/`);

    await page.getByLabel('Email').fill('linus@example.io');
    await page.getByLabel('Password').fill('old password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('alert'), 'Invalid credentials');
    await page.getByLabel('Password').fill('brand new password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('status'), 'Signed in as linus@example.io');

    await page.goto(link);
    await page.getByLabel('New password').fill('another password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await see(page.getByRole('alert'), 'Reset token is invalid or expired');
  });

  it('refuses an injected inline script, and the CSP watch reports it (so its silence elsewhere means something)', async () => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    const ran = await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true';
      document.body.append(script);
      return window.injectedRan === true;
    })()`);
    expect(ran).toBe(false);
    const violations = watched.trouble.cspViolations;
    await eventually('the event and the console both reported it', () => new Set(violations.map((violation) => violation.source)).size === 2);
    expect(violations.find((violation) => violation.source === 'event')).toMatchObject({ page: `${demo.baseUrl}/`, detail: 'script-src-elem refused inline' });
    violations.length = 0; // expected here; afterEach checks that nothing else was refused
  });

  it('fits a phone-sized screen: nothing wider than the viewport', async () => {
    const phone = await openWatchedPage(chromium.browser, { viewport: { width: 360, height: 740 } });
    try {
      await phone.page.goto(demo.baseUrl);
      await see(phone.page.getByRole('status'), 'Not signed in');
      const pageWidth = await phone.page.locator('html').evaluate((html) => html.scrollWidth);
      expect(pageWidth).toBeLessThanOrEqual(360);
      const signUp = await phone.page.getByRole('button', { name: 'Sign up' }).boundingBox();
      expect(signUp!.x + signUp!.width).toBeLessThanOrEqual(360);
      expect(signUp!.height).toBeGreaterThanOrEqual(44);
    } finally {
      await phone.context.close();
    }
    expect(phone.trouble).toEqual({ cspViolations: [], pageErrors: [] });
  });
});

import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { describeInChromium } from '../support/chromium.js';
import { startPageDemo } from '../support/page-demo.js';
import { suiteDemo } from '../support/suite-demos.js';
import { see } from '../support/see.js';

const PASSWORD = 'correct horse battery';

/**
 * The signed-in card's "Recent activity" (docs/guides/account-security.md), on the built demo with the
 * activity log on (its default) and off (AUTH_AUDIT=off), driven by label, role and name only.
 */
describeInChromium("the demo page's recent activity, in Chromium", (chromium) => {
  let demo: DemoProcess;
  let withoutLog: DemoProcess;

  beforeAll(async () => {
    [demo, withoutLog] = await Promise.all([suiteDemo(), startPageDemo({ AUTH_AUDIT: 'off' })]);
  });
  afterAll(async () => {
    await withoutLog?.stop();
  });

  const enter = async (page: Page, on: DemoProcess, email: string, password: string, button: 'Log in' | 'Sign up') => {
    await page.goto(on.baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: button }).click();
  };
  const activity = (page: Page) => page.getByRole('region', { name: 'Recent activity' });

  it('lists the newest entries of the log, a refused sign-in among them', async () => {
    const { page } = await chromium.openPage();
    await enter(page, demo, 'frances@example.io', PASSWORD, 'Sign up');
    await see(page.getByRole('status'), 'Signed in as frances@example.io');
    await page.getByRole('button', { name: 'Log out' }).click();
    // Signed out before the next page load: a reload racing the logout would show the signed-in card.
    await see(page.getByRole('status'), 'Not signed in');
    await enter(page, demo, 'frances@example.io', 'not the password at all', 'Log in');
    await see(page.getByRole('alert'), 'Invalid credentials');
    await enter(page, demo, 'frances@example.io', PASSWORD, 'Log in');
    await see(page.getByRole('status'), 'Signed in as frances@example.io');
    const items = activity(page).getByRole('listitem');
    await see(items.first(), 'Signed in');
    expect(await items.allTextContents()).toEqual([
      expect.stringMatching(/^Signed in, /),
      expect.stringMatching(/^A sign-in was refused, /),
      expect.stringMatching(/^Signed out, /),
      expect.stringMatching(/^Signed in, /),
    ]);
  });

  it('shows no activity section with AUTH_AUDIT=off', async () => {
    const { page } = await chromium.openPage();
    await enter(page, withoutLog, 'bob@example.io', PASSWORD, 'Sign up');
    await see(page.getByRole('status'), 'Signed in as bob@example.io');
    await page.getByRole('region', { name: 'Signed-in devices' }).getByRole('listitem').first().waitFor();
    expect(await activity(page).count()).toBe(0);
  });
});

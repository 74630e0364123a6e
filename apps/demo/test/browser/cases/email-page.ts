import { expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { see } from '../support/see.js';

/** The pages of the email links (AUTH_EMAIL_VERIFICATION=required), driven by label, role and name only. */
describeInChromium('the demo page with AUTH_EMAIL_VERIFICATION=required, in Chromium', (chromium) => {
  let demo: DemoProcess;
  let page: Page;
  chromium.demoPageForEachTest(() => startPageDemo({ AUTH_EMAIL_VERIFICATION: 'required' }), (opened) => ({ demo, page } = opened));

  const logIn = async (email: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  it('signs up without signing in, refuses the login until the mailed link is opened and its button pressed', async () => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('ada@example.io');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByText('Your account is created.'), 'Open the link we sent to ada@example.io');
    expect(await page.getByRole('status').innerText()).toBe('Not signed in');

    await logIn('ada@example.io');
    await see(page.getByRole('alert'), 'Verify your email before you log in');

    const mail = await demo.waitForLine('MAIL ', (line) => line.to === 'ada@example.io' && line.kind === 'email_verification');
    await page.goto(String(mail.link));
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await page.getByRole('button', { name: 'Verify email' }).click();
    await see(page.getByText('Your email is verified.'), 'Log in to continue.');
    expect(page.url()).toBe(`${demo.baseUrl}/`);

    await logIn('ada@example.io');
    await see(page.getByRole('status'), 'Signed in as ada@example.io');

    // A spent link says so.
    await page.goto(String(mail.link));
    await page.getByRole('button', { name: 'Verify email' }).click();
    await see(page.getByRole('alert'), 'Verification token is invalid or expired');
  });

  it("confirms a change of email from its link's page, signed in as the new address", async () => {
    await fetch(`${demo.baseUrl}/auth/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'grace@example.io', password: 'correct horse battery' }) });
    const verification = await demo.waitForLine('MAIL ', (line) => line.to === 'grace@example.io' && line.kind === 'email_verification');
    await fetch(`${demo.baseUrl}/auth/verify-email`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: new URL(String(verification.link)).searchParams.get('token') }) });
    await page.goto(demo.baseUrl);
    await logIn('grace@example.io');
    await see(page.getByRole('status'), 'Signed in as grace@example.io');
    await page.getByLabel('New email').fill('grace.hopper@example.io');
    await page.getByLabel('Current password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Change email' }).click();
    await see(page.getByText('A message is on its way to grace.hopper@example.io'), 'open its link to make it your email');

    const mail = await demo.waitForLine('MAIL ', (line) => line.to === 'grace.hopper@example.io' && line.kind === 'email_change');
    await page.goto(String(mail.link));
    await page.getByRole('heading', { name: 'Confirm your new email' }).waitFor();
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await see(page.getByText('Your email is changed'), 'every other device signed in to your account was signed out');
    await see(page.getByRole('status'), 'Signed in as grace.hopper@example.io');
    expect(page.url()).toBe(`${demo.baseUrl}/`);
  });
});

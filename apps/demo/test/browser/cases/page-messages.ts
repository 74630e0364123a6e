import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page, Response } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { descriptionOf, seeDescribed } from '../support/described-by.js';
import { see } from '../support/see.js';

/** A body the library refuses, and what the page makes of each of its problems: [field, sentence]. */
const REFUSALS: { route: string; body: Record<string, unknown>; plain: [string | null, string][] }[] = [
  {
    route: '/auth/signup',
    body: { email: 'not an address', password: 'short' },
    plain: [
      ['email', 'Enter an email address like name@example.com'],
      ['password', 'Use at least 8 characters'],
    ],
  },
  {
    route: '/auth/signup',
    body: { email: 'ada@example.io', password: 'é'.repeat(40), displayName: '' },
    plain: [
      ['password', 'Use at most 72 bytes — fewer characters if they are accented'],
      ['displayName', 'Display name: 1 to 64 characters'],
    ],
  },
  { route: '/auth/signup', body: { email: 'ada@example.io', password: 'long enough', displayName: 'x'.repeat(65) }, plain: [['displayName', 'Display name: 1 to 64 characters']] },
  {
    route: '/auth/signup',
    body: { email: 'ada\u200b@example.io', password: 'long enough' },
    plain: [['email', 'Remove the invisible characters (such as zero-width spaces) from the email address']],
  },
  { route: '/auth/signup', body: { email: 'ada@example.io', password: 'long\u0000enough' }, plain: [['password', 'Remove the invisible or broken characters']] },
  { route: '/auth/login', body: { email: 'ada@example.io', password: '' }, plain: [['password', 'Enter your password']] },
  { route: '/auth/signup', body: { email: 'ada@example.io', password: 'long enough', plan: 'gold' }, plain: [[null, 'The page sent a field the server does not accept (plan).']] },
  {
    route: '/auth/reset-password',
    body: { token: '', password: 'long enough' },
    plain: [[null, 'This reset link is incomplete. Open the link from the message again, or ask for a new one.']],
  },
];

/** The page's messages for refused requests: plain words next to the field they concern, and how long to wait. */
describeInChromium('the demo page\'s messages for refused requests, in Chromium', (chromium) => {
  let demo: DemoProcess;
  let limitedDemo: DemoProcess;
  let page: Page;

  // The first demo counts nothing (these tests send more signups than a window allows); the second lets one login through per window.
  beforeAll(async () => {
    limitedDemo = await startPageDemo({ RATE_LIMIT_MAX: '1' });
  });
  afterAll(async () => {
    await limitedDemo?.stop();
  });
  chromium.demoPageForEachTest(() => startPageDemo({ RATE_LIMIT_BACKEND: 'off' }), (opened) => ({ demo, page } = opened));

  it('shows each problem of a refused signup under its field, marks the field invalid, and clears it when the field is edited', async () => {
    await page.goto(demo.baseUrl);
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password');
    await email.fill('not an address');
    await password.fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await seeDescribed(email, 'Enter an email address like name@example.com');
    await seeDescribed(password, 'Use at least 8 characters');
    expect(await descriptionOf(password)).toEqual(['Use at least 8 characters', 'At least 8 characters.']);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Display name').getAttribute('aria-invalid')).toBeNull();
    expect(await email.evaluate((field) => field.ownerDocument.activeElement === field)).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain('must be');

    await email.fill('ada@example.io');
    expect(await descriptionOf(email)).toEqual([]);
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    await password.fill('correct horse battery');
    expect(await descriptionOf(password)).toEqual(['At least 8 characters.']);
    expect(await password.getAttribute('aria-invalid')).toBeNull();

    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByRole('status'), 'Signed in as ada@example.io');
  });

  it('clears the field messages when the form is sent again', async () => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('grace@example.io');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await seeDescribed(page.getByLabel('Password'), 'Use at least 8 characters');

    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('alert'), 'Invalid credentials');
    expect(await descriptionOf(page.getByLabel('Password'))).toEqual(['At least 8 characters.']);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the new password\'s problem under New password, and a broken reset link\'s in the alert', async () => {
    await page.goto(`${demo.baseUrl}/reset-password?token=`);
    const newPassword = page.getByLabel('New password');
    await newPassword.fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await seeDescribed(newPassword, 'Use at least 8 characters');
    expect(await newPassword.getAttribute('aria-invalid')).toBe('true');
    await see(page.getByRole('alert'), 'This reset link is incomplete. Open the link from the message again, or ask for a new one.');
  });

  it('puts each validation message the library sends into plain words, for its field or for the alert', async () => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    for (const { route, body, plain } of REFUSALS) {
      const response = await fetch(`${demo.baseUrl}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const refusal = (await response.json()) as { code: string; message: string[] };
      expect([response.status, refusal.code]).toEqual([400, 'VALIDATION_FAILED']);
      const shown = await page.evaluate(
        `import('/demo/validation-problems.js').then(({ plainProblem }) => ${JSON.stringify(refusal.message)}.map((problem) => { const { field, text } = plainProblem(problem); return [field, text]; }))`,
      );
      expect({ refusal: refusal.message, shown }).toEqual({ refusal: refusal.message, shown: plain });
    }
  });

  it('words the wait of Retry-After in seconds, minutes or hours, rounded up', async () => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    const inNinetySeconds = new Date(Date.now() + 90_000).toUTCString();
    const sentences = await page.evaluate(
      `import('/demo/refusal.js').then(({ waitSentence }) => ['45', '1', '60', '61', '120', '3600', '5400', ${JSON.stringify(inNinetySeconds)}, null, 'soon'].map(waitSentence))`,
    );
    expect(sentences).toEqual([
      'Too many attempts. Try again in 45 seconds.',
      'Too many attempts. Try again in 1 second.',
      'Too many attempts. Try again in 1 minute.',
      'Too many attempts. Try again in 2 minutes.',
      'Too many attempts. Try again in 2 minutes.',
      'Too many attempts. Try again in 1 hour.',
      'Too many attempts. Try again in 2 hours.',
      'Too many attempts. Try again in 2 minutes.',
      'Too many attempts. Wait a little, then try again.',
      'Too many attempts. Wait a little, then try again.',
    ]);
  });

  it('says how long to wait after a rate-limited login, with the seconds of Retry-After', async () => {
    await page.goto(limitedDemo.baseUrl);
    await page.getByLabel('Email').fill('mallory@example.io');
    await page.getByLabel('Password').fill('guess number one');
    // One login per window: the second is refused, unless a window ended between the two (then the third is).
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 3 && !refused; attempt++) {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/login');
      await page.getByRole('button', { name: 'Log in' }).click();
      const response = await answered;
      // A locator, not waitForFunction: Playwright polls a string predicate with eval, which the demo's CSP refuses.
      await page.locator('[aria-busy]').first().waitFor({ state: 'detached' });
      if (response.status() === 429) refused = response;
      else await see(page.getByRole('alert'), 'Invalid credentials');
    }
    expect(refused).toBeDefined();
    const seconds = Number(await refused!.headerValue('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    // A refusal in the window's first second has Retry-After 60, which the page says in minutes.
    const wait = seconds === 60 ? '1 minute' : `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
    await see(page.getByRole('alert'), `Too many attempts. Try again in ${wait}.`);
    expect(await page.getByRole('alert').innerText()).not.toContain('Too many requests');
  });
});

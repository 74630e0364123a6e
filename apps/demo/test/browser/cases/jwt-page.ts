import { beforeEach, expect, it } from '@jest/globals';
import type { Page, Response } from 'playwright-core';
import { describeInChromium } from '../support/chromium.js';
import type { DemoWithClock } from '../support/demo-with-clock.js';
import { suiteDemoWithClock } from '../support/suite-demos.js';
import { see } from '../support/see.js';

const ELEVEN_MINUTES = 11 * 60_000;

const answerOf = (page: Page, path: string) => page.waitForResponse((response) => new URL(response.url()).pathname === path);

async function meWith(demo: DemoWithClock, accessToken: string): Promise<number> {
  return (await fetch(`${demo.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${accessToken}` } })).status;
}

async function tokenOf(answer: Promise<Response>): Promise<string> {
  const response = await answer;
  expect(response.status()).toBeLessThan(300);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * AUTH_STRATEGY=jwt: the access token lives in the page's memory only and is renewed through the
 * refresh cookie. Time passes on both sides: the demo's AUTH_CLOCK (in this process) and the
 * page's clock (Playwright's fake timers), so a token really expires at the server.
 */
describeInChromium('the demo page on the jwt strategy, in Chromium', (chromium) => {
  let demo: DemoWithClock;
  let page: Page;
  chromium.sharedDemoPageForEachTest(() => suiteDemoWithClock({ AUTH_STRATEGY: 'jwt' }), (opened) => ({ demo, page } = opened));
  beforeEach(async () => {
    await page.clock.install();
  });

  it('signs up without showing or storing the access token, and stays signed in across a reload', async () => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').fill('hedy@example.io');
    await page.getByLabel('Password').fill('frequency hopping');
    const signup = answerOf(page, '/auth/signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const accessToken = await tokenOf(signup);
    await see(page.getByRole('status'), 'Signed in as hedy@example.io');

    expect(await page.content()).not.toContain(accessToken);
    const stored = await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]');
    expect(stored).toEqual([0, 0, '']);

    const refresh = answerOf(page, '/auth/refresh');
    await page.reload();
    expect(await tokenOf(refresh)).not.toBe(accessToken);
    await see(page.getByRole('status'), 'Signed in as hedy@example.io');
  });

  it('renews the access token before it expires: still signed in once the old one is refused', async () => {
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill('joan@example.io');
    await page.getByLabel('Password').fill('clarke sees far');
    const signup = answerOf(page, '/auth/signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const firstToken = await tokenOf(signup);
    await see(page.getByRole('status'), 'Signed in as joan@example.io');

    demo.clock.shift(ELEVEN_MINUTES);
    expect(await meWith(demo, firstToken)).toBe(401);

    const refresh = answerOf(page, '/auth/refresh');
    const me = answerOf(page, '/auth/me');
    await page.clock.fastForward('11:00');
    const renewedToken = await tokenOf(refresh);
    expect((await me).status()).toBe(200);
    expect(await meWith(demo, renewedToken)).toBe(200);
    await see(page.getByRole('status'), 'Signed in as joan@example.io');

    await page.getByRole('button', { name: 'Log out' }).click();
    await see(page.getByRole('status'), 'Not signed in');
    expect(await meWith(demo, renewedToken)).toBe(401);
    await page.reload();
    await see(page.getByRole('status'), 'Not signed in');
  });
});

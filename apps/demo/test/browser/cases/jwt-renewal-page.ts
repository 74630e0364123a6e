import { beforeEach, expect, it } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { describeInChromium } from '../support/chromium.js';
import type { DemoWithClock } from '../support/demo-with-clock.js';
import { suiteDemoWithClock } from '../support/suite-demos.js';
import { eventually } from '../../../../../test/support/eventually.js';
import { see } from '../support/see.js';

/** Past the access token's lifetime (AUTH_STRATEGY=jwt: 10 minutes), and past the client's renewal (a minute before expiry). */
const ELEVEN_MINUTES = 11 * 60_000;
const BURST = 24;

const pathOf = (request: Request) => new URL(request.url()).pathname;

/**
 * Many requests at once from the page's own client (the module /demo/api.js that the page runs, so
 * its access token and renewal), each answered with what the server said: status codes only.
 */
function burstFromPage(page: Page, count: number): Promise<number[]> {
  return page.evaluate(async (n) => {
    const { auth } = (await import('/demo/api.js' as string)) as { auth: { devices: { list(): Promise<unknown> } } };
    return Promise.all(
      Array.from({ length: n }, () =>
        auth.devices.list().then(
          () => 200,
          (error: { status?: number }) => error.status ?? -1,
        ),
      ),
    );
  }, count);
}

/**
 * The jwt page renews its access token while requests are in flight: refresh tokens are single use
 * (RFC 9700 §4.14.2), so two refreshes of one token would end the session. Exactly one POST
 * /auth/refresh per renewal, however many requests wait for it, and none of them refused. Time passes
 * on both sides as in jwt-page: the demo's AUTH_CLOCK (shifted) and the page's (Playwright's fake timers).
 */
describeInChromium('the jwt demo page renews its access token under concurrent requests, in Chromium', (chromium) => {
  let demo: DemoWithClock;
  let page: Page;
  let refreshes: Request[];
  let refused: Array<{ path: string; status: number }>;
  let inFlight: Set<Request>;
  chromium.sharedDemoPageForEachTest(() => suiteDemoWithClock({ AUTH_STRATEGY: 'jwt' }), (opened) => ({ demo, page } = opened));
  beforeEach(async () => {
    await page.clock.install();
    refreshes = [];
    refused = [];
    inFlight = new Set();
    page.on('request', (request) => {
      inFlight.add(request);
      if (request.method() === 'POST' && pathOf(request) === '/auth/refresh') refreshes.push(request);
    });
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => inFlight.delete(request));
    page.on('response', (response) => {
      if (response.status() >= 400 && pathOf(response.request()) !== '/auth/refresh') refused.push({ path: pathOf(response.request()), status: response.status() });
    });
  });

  /**
   * The page's requests have all been answered (the card's reload after a renewal included): the
   * server's clock may move on without catching one of them on the way.
   */
  const settled = () => eventually('the page has no request on the way', () => inFlight.size === 0);

  const signUp = async (email: string) => {
    await page.goto(demo.baseUrl);
    await see(page.getByRole('status'), 'Not signed in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('several at once');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByRole('status'), `Signed in as ${email}`);
    await see(page.getByRole('region', { name: 'Signed-in devices' }), 'Only this device is signed in.');
    await settled();
    // The page's load asked POST /auth/refresh whether anyone was signed in (nobody was): counting starts now.
    refreshes = [];
    refused = [];
  };

  it('a token the server no longer accepts, met by many requests at once: one refresh, every request answered 200 after it', async () => {
    await signUp('grace@example.io');
    expect(refreshes).toHaveLength(0);

    // The server's clock moves on, the page's does not: the page still holds its token, which the server now refuses.
    demo.clock.shift(ELEVEN_MINUTES);
    const statuses = await burstFromPage(page, BURST);
    expect(statuses).toEqual(Array.from({ length: BURST }, () => 200));
    expect(refreshes).toHaveLength(1);
    // The refusals the page saw are the old token's, one per request of the burst, before the one refresh.
    expect(refused.every((one) => one.path === '/auth/sessions' && one.status === 401)).toBe(true);
    expect(refused.length).toBeLessThanOrEqual(BURST);

    // Nothing more to renew: another burst goes out with the new token, no refresh, nothing refused.
    refused = [];
    expect(await burstFromPage(page, BURST)).toEqual(Array.from({ length: BURST }, () => 200));
    expect(refreshes).toHaveLength(1);
    expect(refused).toEqual([]);
    await see(page.getByRole('status'), 'Signed in as grace@example.io');
  });

  it('renews in the background on time: one refresh per renewal across two lifetimes, requests sent meanwhile wait for it, none refused', async () => {
    await signUp('hopper@example.io');
    for (const round of [1, 2]) {
      await settled();
      demo.clock.shift(ELEVEN_MINUTES);
      const renewed = page.waitForResponse((response) => pathOf(response.request()) === '/auth/refresh');
      // After a renewal the card reloads the user (GET /auth/me), then its lists; the activity list is
      // among the last requests of that chain and not one the burst sends. Until it is answered the
      // chain may be between two requests, none on the way, so `settled` alone could let the next
      // round move the server's clock past the renewed token while the lists are still to be asked.
      const cardReloaded = page.waitForResponse((response) => pathOf(response.request()) === '/auth/me/activity');
      // The renewal's timer fires; the burst goes out at once, while its refresh may still be on the way: its requests wait for the renewed token.
      await page.clock.fastForward('11:00');
      const statuses = await burstFromPage(page, BURST);
      expect((await renewed).status()).toBe(200);
      expect(statuses).toEqual(Array.from({ length: BURST }, () => 200));
      expect(refreshes).toHaveLength(round);
      await cardReloaded;
    }
    await settled();
    expect(refused).toEqual([]);
    await see(page.getByRole('status'), 'Signed in as hopper@example.io');
  });
});

import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { registerAccount, startPageDemo } from '../support/page-demo.js';
import { describeInChromium } from '../support/chromium.js';
import { see } from '../support/see.js';

const PASSWORD = 'correct horse battery';
const CREDENTIALS = ['session', 'jwt'] as const;

/**
 * The signed-in card's API keys (AUTH_API_KEYS=on, docs/demo.md), on each credential, driven by
 * label, role and name only: a key created on the page is shown once with `Copy`, reaches GET
 * /profile and /auth/me as a bearer token, and is refused once revoked.
 */
describeInChromium("the demo page's API keys, in Chromium", (chromium) => {
  const demos = {} as Record<(typeof CREDENTIALS)[number], DemoProcess>;

  beforeAll(async () => {
    [demos.session, demos.jwt] = await Promise.all([startPageDemo({ AUTH_API_KEYS: 'on' }), startPageDemo({ AUTH_API_KEYS: 'on', AUTH_STRATEGY: 'jwt' })]);
  });
  afterAll(async () => {
    await Promise.all(Object.values(demos).map((demo) => demo.stop()));
  });

  const keyList = (page: Page) => page.getByRole('list', { name: 'API keys' });
  const withKey = (demo: DemoProcess, key: string, path: string) => fetch(`${demo.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });

  it.each(CREDENTIALS)('creates a key shown once with Copy, lists it without the key, and revokes it (%s credential)', async (credential) => {
    const demo = demos[credential];
    const email = `keys-${credential}@example.io`;
    await registerAccount(demo, email, PASSWORD);
    const watched = await chromium.openPage();
    const { page } = watched;
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.baseUrl });
    await page.goto(demo.baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page.getByRole('status'), `Signed in as ${email}`);
    await see(page.getByText('No API key yet'), 'No API key yet: create one for a script or another service.');

    await page.getByLabel('API key name').fill('Nightly export');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await see(page.getByText('is created. Copy it now'), 'API key "Nightly export" is created. Copy it now: it is not shown again.');
    const key = (await page.locator('#api-key-value').textContent())!;
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    await see(keyList(page).getByRole('listitem'), `Nightly export${key.slice(0, 8)}…`);
    expect(await keyList(page).textContent()).not.toContain(key);

    await page.getByRole('button', { name: 'Copy' }).click();
    await see(page.getByText('The key is copied.'), 'The key is copied.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);

    const profile = await withKey(demo, key, '/profile');
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { email: string }).email).toBe(email);
    expect((await withKey(demo, key, '/auth/me')).status).toBe(200);
    expect((await withKey(demo, key, '/auth/api-keys')).status).toBe(403);

    // Shown once: after a reload the page lists the key, never the key itself.
    await page.reload();
    await see(keyList(page).getByRole('listitem'), 'Nightly export');
    expect(await page.locator('#api-key-value').textContent()).toBe('');
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(false);

    await page.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await see(page.getByText('is revoked'), 'API key "Nightly export" is revoked: it is refused from now on.');
    await see(page.getByText('No API key yet'), 'No API key yet');
    expect((await withKey(demo, key, '/profile')).status).toBe(401);
  });
});

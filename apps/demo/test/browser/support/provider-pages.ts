import type { Page } from 'playwright-core';

/**
 * oidc-provider's devInteractions pages have no labels: their placeholders and buttons name the
 * fields. Signs in as `login` (any password) and gives consent.
 */
export async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Signs in as `login`, then refuses consent: the provider answers the callback with `error=access_denied`. */
export async function refuseConsentAtProvider(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).waitFor();
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
}

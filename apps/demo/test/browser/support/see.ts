import type { Locator } from 'playwright-core';

/**
 * Waits until `locator` is visible and shows `text` (playwright-core has no auto-waiting
 * `expect`); on timeout the error says what it showed instead.
 */
export async function see(locator: Locator, text: string | RegExp, timeout = 10_000): Promise<void> {
  try {
    await locator.filter({ hasText: text }).first().waitFor({ state: 'visible', timeout });
  } catch (error) {
    const shown = await locator.allInnerTexts().catch(() => []);
    throw new Error(`expected ${locator} to show ${JSON.stringify(String(text))}; it showed ${JSON.stringify(shown)}`, { cause: error });
  }
}

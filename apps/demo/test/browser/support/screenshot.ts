import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Writes `name` into $SCREENSHOT_DIR (the README's picture: `SCREENSHOT_DIR=docs`); without the
 * variable it does nothing, so an ordinary run leaves the work tree alone.
 */
export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  const directory = process.env.SCREENSHOT_DIR;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, name), fullPage: true, animations: 'disabled', caret: 'hide' });
}

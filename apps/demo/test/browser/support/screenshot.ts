import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * Writes `name` into $SCREENSHOT_DIR (the README's picture: `SCREENSHOT_DIR=docs`); without the
 * variable it does nothing, so an ordinary run leaves the work tree alone. With `viewport`, the
 * picture is taken at that size and the page's size restored after; with `ready`, once that text is shown.
 */
export async function screenshotIfAsked(page: Page, name: string, viewport?: { width: number; height: number }, ready?: Locator): Promise<void> {
  const directory = process.env.SCREENSHOT_DIR;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await ready?.waitFor();
  const before = page.viewportSize();
  if (viewport) await page.setViewportSize(viewport);
  await page.screenshot({ path: join(directory, name), fullPage: true, animations: 'disabled', caret: 'hide' });
  if (viewport && before) await page.setViewportSize(before);
}

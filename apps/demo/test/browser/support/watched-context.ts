import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type PageTrouble, watchPages } from './page-watch.js';

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  trouble: PageTrouble;
}

/** The window of a profile, and the user agent that tells it from another profile in a device list. */
export interface WatchedPageOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
}

/** A fresh browser profile (no cookies), its CSP violations and errors recorded; Chromium reaches loopback only (CHROMIUM_FLAGS). */
export async function openWatchedPage(browser: Browser, options: WatchedPageOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1024, height: 800 }, userAgent: options.userAgent });
  context.setDefaultTimeout(10_000);
  const trouble = await watchPages(context);
  const page = await context.newPage();
  return { context, page, trouble };
}

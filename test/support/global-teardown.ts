import type { BrowserServer } from 'playwright-core';

/** Where globalSetup left the shared Chromium. */
const SHARED_CHROMIUM = Symbol.for('svc.test.sharedChromium');

/** Closes the Chromium globalSetup started for the run's browser suites. */
export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as Record<symbol, unknown>)[SHARED_CHROMIUM] as BrowserServer | undefined;
  delete (globalThis as Record<symbol, unknown>)[SHARED_CHROMIUM];
  await server?.close();
}

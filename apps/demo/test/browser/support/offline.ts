import type { BrowserContext } from 'playwright-core';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Keeps a context on this machine: any request to another host is aborted (oidc-provider's own
 * pages @import a web font, which a test must neither wait for nor depend on).
 */
export async function stayOnLoopback(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => !LOOPBACK.has(url.hostname),
    (route) => route.abort('blockedbyclient'),
  );
}

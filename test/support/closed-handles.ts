import { afterAll } from '@jest/globals';

/** What a suite's teardown leaves closing: sockets, servers, child processes, stream shutdowns. */
const CLOSING = new Set(['TCPSocketWrap', 'TCPServerWrap', 'ProcessWrap', 'ShutdownWrap', 'SimpleShutdownWrap']);
const LIMIT_MS = 2000;

/**
 * After every suite (its describes' own teardown has run): waits until the sockets, servers and
 * processes its teardown closed are gone. A close takes a few milliseconds on a quiet machine and
 * longer on a busy one; without this wait, Jest could end a worker while the last suite's closes
 * were still under way, and force it out ("a worker process has failed to exit gracefully"). What
 * is still open after two seconds was never closed: it is named, for the suite's author to close.
 */
afterAll(async () => {
  const deadline = Date.now() + LIMIT_MS;
  while (open().length > 0) {
    if (Date.now() > deadline) {
      console.warn(`still open ${LIMIT_MS} ms after the suite's teardown: ${open().join(', ')}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}, LIMIT_MS + 1000);

function open(): string[] {
  return process.getActiveResourcesInfo().filter((name) => CLOSING.has(name));
}

/** Polls `condition` until it holds (work after a response, what a browser or a child process reports); no fixed sleep. */
export async function eventually(what: string, condition: () => boolean, timeout = 5000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

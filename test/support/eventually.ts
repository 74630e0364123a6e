/** Polls `condition` (sync or async) until it holds (work after a response, what a browser, a child process or a server reports); no fixed sleep. */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, timeout = 5000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

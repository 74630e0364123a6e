/** A setting that is wrong; the message names the variable. */
export class DemoConfigError extends Error {
  constructor(variable: string, rule: string) {
    super(`${variable} ${rule}`);
  }
}

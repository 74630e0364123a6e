import { fromBase32, stepOf, totpAt } from './rfc6238.js';

/** RFC 6238 §4.1: X, the time step, 30 s. */
const STEP_MS = 30_000;

/** The code of a base32 secret (as the setup answers it, and the demo page shows it) at `at`, by the tests' own RFC 6238. */
export function codeOfSecretAt(secret: string, at: Date): string {
  return totpAt(fromBase32(secret), stepOf(at));
}

/** Six digits that no step within one of `at` gives (RFC 6238 §5.2: the library accepts one step either side). */
export function wrongCodeAt(secret: string, at: Date): string {
  const near = new Set([-1, 0, 1].map((steps) => codeOfSecretAt(secret, new Date(at.getTime() + steps * STEP_MS))));
  for (let code = 0; ; code++) {
    const digits = String(code).padStart(6, '0');
    if (!near.has(digits)) return digits;
  }
}

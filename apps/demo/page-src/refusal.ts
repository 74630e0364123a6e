/**
 * refusal: what a refused answer (`send`'s { status, body, retryAfter }) tells the person.
 * Validation problems in plain words, each with its field; 429 as how long to wait, from
 * Retry-After; anything else the library's own message (AUTH_ERRORS, already plain).
 */
import type { Refusal } from './api.js';
import { plainProblem } from './validation-problems.js';

/** [{ field, text }]: field is a body field name, or null for the alert. */
export function readRefusal(answer: Refusal): Array<{ field: string | null; text: string }> {
  const body = answer.body;
  if (answer.status === 429) return [{ field: null, text: waitSentence(answer.retryAfter) }];
  if (Array.isArray(body.message) && body.message.length > 0) return body.message.map(plainProblem);
  return [{ field: null, text: typeof body.message === 'string' && body.message ? body.message : 'Something went wrong. Try again.' }];
}

/** "Too many attempts. Try again in 45 seconds." from a Retry-After header (seconds or an HTTP date). */
export function waitSentence(retryAfter: string | null): string {
  const seconds = secondsToWait(retryAfter);
  if (seconds === null) return 'Too many attempts. Wait a little, then try again.';
  return 'Too many attempts. Try again in ' + duration(seconds) + '.';
}

function secondsToWait(retryAfter: unknown): number | null {
  if (typeof retryAfter !== 'string' || retryAfter.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(retryAfter)) return Number(retryAfter);
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? null : Math.ceil((at - Date.now()) / 1000);
}

/** Rounded up: better to come back a little late than to be refused again. */
function duration(seconds: number): string {
  if (seconds < 60) return count(Math.max(1, seconds), 'second');
  if (seconds < 3600) return count(Math.ceil(seconds / 60), 'minute');
  return count(Math.ceil(seconds / 3600), 'hour');
}

function count(amount: number, unit: string): string {
  return amount + ' ' + unit + (amount === 1 ? '' : 's');
}

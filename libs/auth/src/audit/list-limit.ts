import { AuthError } from '../errors/auth.error.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** A list's `?limit=`: 1..100, 20 when absent; anything else (0, 101, `abc`, a repeated parameter) is 400 `VALIDATION_FAILED`. */
export function listLimitOf(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  const value = typeof limit === 'string' && /^[0-9]{1,3}$/.test(limit) ? Number(limit) : NaN;
  if (!(value >= 1 && value <= MAX_LIMIT)) throw new AuthError('VALIDATION_FAILED', { message: [`limit must be an integer from 1 to ${MAX_LIMIT}`] });
  return value;
}

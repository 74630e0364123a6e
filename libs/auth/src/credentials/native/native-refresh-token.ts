import type { Request } from 'express';
import { AuthError } from '../../errors/auth.error.js';
import { jsonBodyProblems } from '../../http/json-body-rules.js';

const FIELDS: ReadonlySet<string> = new Set(['refresh_token']);
/** Far longer than any refresh token the library issues; a longer one is not looked up. */
const MAX_LENGTH = 512;

/**
 * The refresh token a native client sends in the body of POST /refresh or /logout, `{ "refresh_token" }`
 * (RFC 6749 §6), or undefined when it sends none. A body of another shape is 400 `VALIDATION_FAILED`,
 * as every body the library reads (unknown fields refused, strings well formed).
 */
export function nativeRefreshTokenOf(request: Request): string | undefined {
  const body: unknown = request.body;
  if (body === undefined) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AuthError('VALIDATION_FAILED', { message: ['body must be a JSON object'] });
  const problems = jsonBodyProblems(body as Record<string, unknown>, FIELDS);
  if (problems.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problems });
  const token = (body as { refresh_token?: unknown }).refresh_token;
  if (token === undefined) return undefined;
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_LENGTH) {
    throw new AuthError('VALIDATION_FAILED', { message: [`refresh_token must be a string of 1 to ${MAX_LENGTH} characters`] });
  }
  return token;
}

/** What a before-hook may read without the body being refused first: whether a token string is there. */
export function hasNativeRefreshToken(request: Request): boolean {
  const body: unknown = request.body;
  return body !== null && typeof body === 'object' && typeof (body as { refresh_token?: unknown }).refresh_token === 'string';
}

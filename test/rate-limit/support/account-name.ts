import { createHmac, hkdfSync } from 'node:crypto';

/**
 * How docs/decisions/0016-rate-limiting-windows-and-backends.md says an account is named in limiter keys,
 * computed here on its own: HMAC-SHA256 of the normalised email, base64url, keyed with
 * HKDF-SHA256(secret, no salt, info "svc rate-limit account keys", 32 bytes).
 */
export function accountName(secret: string, normalisedEmail: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'svc rate-limit account keys', 32));
  return createHmac('sha256', key).update(normalisedEmail, 'utf8').digest('base64url');
}

/** A key that names an account by its HMAC: `account:<43 base64url characters>:...`. */
export const ACCOUNT_KEY = /^account:[A-Za-z0-9_-]{43}:/;

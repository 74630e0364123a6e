import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token for a cookie or a mail, URL-safe (docs/decisions/0007-sessions.md). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database stores instead of the token. Lookups by this hash leak nothing useful through
 * timing: an attacker cannot steer the hash of a guess (OWASP Session Management: store hashed ids).
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets or secret-derived values (token hashes, password hashes) in constant time. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

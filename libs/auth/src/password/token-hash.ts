import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token for a cookie or a mail, URL-safe (contract §3). */
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

/** Compares two token hashes in constant time (the project's rule for anything secret-derived). */
export function sameTokenHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

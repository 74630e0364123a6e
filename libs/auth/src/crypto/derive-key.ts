import { hkdfSync } from 'node:crypto';

/**
 * A key for one purpose, derived from a configured secret with HKDF-SHA256 (RFC 5869), so that one
 * secret can serve two purposes without one key ever doing both jobs. Returned as base64url.
 */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, '', `svc ${purpose}`, 32)).toString('base64url');
}

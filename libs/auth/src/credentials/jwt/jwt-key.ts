import type { JwtSettings } from './jwt-settings.js';
import type { webcrypto } from 'node:crypto';

const HASH_OF: Record<JwtSettings['algorithm'], string> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

/**
 * The HMAC key of `jwt.secretKey` (its UTF-8 bytes, no derivation), bound to the configured
 * algorithm's hash: jose refuses to use it for any other `alg` (RFC 8725 §2.1, algorithm
 * confusion). Imported once, not extractable: jose given the string or a `KeyObject` would import
 * it again at every signature and verification.
 */
export function importJwtKey(jwt: Pick<JwtSettings, 'secretKey' | 'algorithm'>): Promise<webcrypto.CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', Buffer.from(jwt.secretKey, 'utf8'), { name: 'HMAC', hash: HASH_OF[jwt.algorithm] }, false, ['sign', 'verify']);
}

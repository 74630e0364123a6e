import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { hashToken } from '../crypto/opaque-token.js';

/** Random characters of `start` after the prefix, shown in the list so a user tells keys apart. */
const START_LENGTH = 4;
/** Longer than any key svc mints (a 32-character prefix and 43 random characters): a longer one is refused unread. */
const MAX_KEY_LENGTH = 128;
// RFC 6750 §2.1: `Bearer` 1*SP token; the scheme is case-insensitive (RFC 9110 §11.1).
const BEARER = /^Bearer +(\S+)$/i;
/** base64url (RFC 4648 §5), so never a `.`: a key is never taken for a JWS compact token, nor a JWS for a key. */
const KEY_CHARACTERS = /^[A-Za-z0-9_-]+$/;

/** A key as it is handed out once, and what is stored of it. */
export interface MintedApiKey {
  key: string;
  /** SHA-256 of the key, hex: what `api_keys.key_hash` holds. */
  hash: string;
  start: string;
}

/**
 * A new key: the prefix, then 256 random bits in base64url (OWASP ASVS 5.0 V7.2.3: at least 128 bits of
 * entropy). Stored as its SHA-256 only: a fast hash suffices for 256 random bits, which no guessing
 * can reach, and it keeps the lookup one indexed equality (docs/decisions/0032-api-keys.md).
 */
export function mintApiKey(prefix: string): MintedApiKey {
  const random = randomBytes(32).toString('base64url');
  const key = `${prefix}${random}`;
  return { key, hash: hashApiKey(key), start: `${prefix}${random.slice(0, START_LENGTH)}` };
}

export function hashApiKey(key: string): string {
  return hashToken(key);
}

/**
 * The API key the request presents in `Authorization: Bearer` (only the header: RFC 6750 §5.3), recognised
 * by its prefix and the absence of a `.` (a JWS compact token has two), or null. A malformed one is
 * still a key, to be refused as one (`isWellFormedApiKey`).
 */
export function apiKeyOf(request: Request, prefix: string): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const token = BEARER.exec(header.trim())?.[1];
  if (token === undefined || !token.startsWith(prefix) || token.includes('.')) return null;
  return token;
}

/** Whether a presented key could be one svc minted (base64url, not too long): anything else is refused without a lookup. */
export function isWellFormedApiKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY_CHARACTERS.test(key);
}

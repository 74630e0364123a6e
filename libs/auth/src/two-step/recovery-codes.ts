import { createHash, randomInt } from 'node:crypto';

/** 32 letters and digits without look-alikes (no l, o, 0, 1): 5 bits a character. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** 24 characters: 120 bits, so a fast one-way hash may store them (NIST SP 800-63B §5.1.2.2: 112 bits or more). */
const LENGTH = 24;
export const RECOVERY_CODE_COUNT = 10;

/** A new recovery code, shown to the user once, grouped by four: `abcd-efgh-jkmn-pqrs-tuvw-xyz2`. */
export function newRecoveryCode(): string {
  const characters = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return characters.join('').match(/.{4}/g)!.join('-');
}

/**
 * What is stored and looked up instead of the code: the SHA-256 of the code as typed, lower-cased
 * and without spaces or hyphens. A fast hash suffices: 120 random bits cannot be guessed offline,
 * unlike a password (docs/decisions/0020-second-factors.md: why not bcrypt).
 */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, ''), 'utf8').digest('hex');
}

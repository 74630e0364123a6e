import { createHash, randomInt } from 'node:crypto';

/** 32 letters and digits without look-alikes (no l, o, 0, 1): 5 bits a character. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** 16 characters: 80 bits of randomness each (NIST SP 800-63B §5.1.2: look-up secrets of at least 64 bits). */
const LENGTH = 16;
export const RECOVERY_CODE_COUNT = 10;

/** A new recovery code, shown to the user once, grouped by four: `abcd-efgh-jkmn-pqrs`. */
export function newRecoveryCode(): string {
  const characters = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return characters.join('').match(/.{4}/g)!.join('-');
}

/**
 * What is stored and looked up instead of the code: the SHA-256 of the code as typed, lower-cased
 * and without spaces or hyphens. A fast hash suffices: 80 random bits cannot be guessed offline,
 * unlike a password (README, "Two-step login": why not bcrypt).
 */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, ''), 'utf8').digest('hex');
}

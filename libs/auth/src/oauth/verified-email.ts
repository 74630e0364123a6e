import { normalizeEmail } from '../users/email.js';

const ASCII_UPPER_CASE = /[A-Z]/g;

/**
 * Whether the address svc would store for a provider's email (NFKC, trimmed, lower-cased: docs/decisions/0006-validation.md) is the address the provider verified. Only ASCII letter case may differ: the
 * domain is case-insensitive (RFC 5321 §2.4), and svc holds local parts that differ only in ASCII
 * case for one account everywhere (`Alice@X.io` is `alice@x.io`). Anything else normalisation
 * would change (fullwidth `ＡＬＩＣＥ@x.io`, a ligature, a Kelvin sign, decomposed accents,
 * non-ASCII upper case, surrounding spaces) names another mailbox than the one the provider
 * checked, so its `email_verified` proves nothing about the stored address.
 */
export function normalisesToTheVerifiedAddress(email: string): boolean {
  return normalizeEmail(email) === email.replace(ASCII_UPPER_CASE, (letter) => letter.toLowerCase());
}

import { isEmail } from 'class-validator';

/** Longest address RFC 5321 §4.5.3.1 lets through a mail system. */
export const MAX_EMAIL_LENGTH = 320;

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;

/**
 * An email as it is stored and looked up: NFKC-normalised, trimmed and lower-cased, so that
 * `Alice@X.io`, ` alice@x.io ` and the fullwidth `ａlice@x.io` are one account (docs/decisions/0006-validation.md). Callers refuse `hasControlOrFormatCharacter` values first.
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * True for a control or format character (Unicode Cc, Cf: NUL, tab, zero-width space and joiner,
 * soft hyphen, BOM, bidi overrides). Such an address renders like another one, so it is refused
 * rather than cleaned (UTS #39 §5: look-alike identifiers).
 */
export function hasControlOrFormatCharacter(value: string): boolean {
  return CONTROL_OR_FORMAT.test(value);
}

/**
 * The normalised form of a value that is a valid address, else null. For callers that see a body
 * before its validation (the rate limiter's per-account key): nothing malformed reaches a key.
 */
export function validEmailOrNull(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_EMAIL_LENGTH || !value.isWellFormed() || hasControlOrFormatCharacter(value)) return null;
  const email = normalizeEmail(value);
  return isEmail(email) ? email : null;
}

import { describedBits, estimatedEntropyBits } from './entropy-estimate.js';
import { estimatedGuessBits } from './guess-estimate.js';

export { estimatedEntropyBits } from './entropy-estimate.js';
export { estimatedGuessBits } from './guess-estimate.js';

/** A signing secret must carry at least this much by both estimates (docs/decisions/0010-secrets.md; RFC 8725 §3.5). */
export const MIN_SECRET_BITS = 128;

/**
 * A secret that is obviously not random: a template (`<SIGNING_SECRET>`, `${JWT_SECRET}`), a short
 * pattern repeated, or a value under MIN_SECRET_BITS by either estimate: the entropy bound (runs,
 * copies, character pool) or zxcvbn's guesses (words, phrases, names, keyboard patterns, dates).
 * Each reading of the value counts, the lowest wins: its text and, when the text is hex, base64
 * or base64url, the bytes it encodes (the base64 of `0123456789…` is no more random than
 * `0123456789…`). Decoded bytes that are text are estimated as text; other bytes by the bound
 * alone, at 8 bits a byte (zxcvbn models typed text, not binary).
 */
export function isPlaceholderSecret(secret: string): boolean {
  const trimmed = secret.trim();
  if (isTemplate(trimmed) || isWeakText(trimmed)) return true;
  return decodings(trimmed).some((bytes) => {
    const text = printableText(bytes);
    if (text !== null) return isWeakText(text);
    const byteChars = bytes.toString('latin1');
    return isRepeatedPattern(byteChars) || describedBits([...byteChars], 8) < MIN_SECRET_BITS;
  });
}

/** Cheapest first: zxcvbn runs only on a value the bound and the repeat check let through. */
function isWeakText(text: string): boolean {
  return isRepeatedPattern(text) || estimatedEntropyBits(text) < MIN_SECRET_BITS || estimatedGuessBits(text) < MIN_SECRET_BITS;
}

function isTemplate(value: string): boolean {
  return /^<[^>]*>$/.test(value) || /^\$\{[^}]*\}$/.test(value) || /^\{\{[^}]*\}\}$/.test(value);
}

/** The bytes the value encodes as hex (RFC 4648 §8), base64 (§4) or base64url (§5), where it is a valid such encoding. */
function decodings(value: string): Buffer[] {
  const found: Buffer[] = [];
  if (/^(?:[0-9a-f]{2})+$/i.test(value)) found.push(Buffer.from(value, 'hex'));
  const unpadded = value.replace(/={1,2}$/, '');
  const lengthFits = unpadded.length > 0 && (unpadded === value ? unpadded.length % 4 !== 1 : value.length % 4 === 0);
  if (lengthFits && /^[A-Za-z0-9+/]+$/.test(unpadded)) found.push(Buffer.from(unpadded, 'base64'));
  if (lengthFits && /^[A-Za-z0-9_-]+$/.test(unpadded) && /[_-]/.test(unpadded)) found.push(Buffer.from(unpadded, 'base64url'));
  return found;
}

/** Bytes that are UTF-8 text without control, format or unassigned characters: an encoded phrase or placeholder. */
function printableText(bytes: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /^\P{C}+$/u.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** `0123456789` × 4, `abc` × 11: a prefix of at most half the value, repeated to its end. */
function isRepeatedPattern(value: string): boolean {
  for (let size = 1; size <= value.length / 2; size++) {
    if (value.length % size === 0 && value.slice(0, size).repeat(value.length / size) === value) return true;
  }
  return false;
}

/**
 * For secrets svc does not generate (a provider's client secret): a template, or a value with so
 * little entropy by either estimate that it cannot be the issued one (`changeme`, `secret`, `xxxxxxxx`).
 */
export function isObviousPlaceholder(value: string): boolean {
  const trimmed = value.trim();
  return isTemplate(trimmed) || estimatedEntropyBits(trimmed) < 40 || estimatedGuessBits(trimmed) < 40;
}

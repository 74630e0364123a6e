/** A signing secret must carry at least this much estimated entropy (README, "Secrets"). */
export const MIN_SECRET_BITS = 128;

/** Words and keyboard runs that placeholder secrets are made of; matched case-insensitively. */
const PLACEHOLDER_WORDS = [
  'your-secret-key', 'your_secret_key', 'signing_secret', 'signing-secret', 'supersecret', 'changeme', 'change-me',
  'change_me', 'replaceme', 'replace-me', 'development', 'password', 'mysecret', 'default', 'example', 'secret',
  'token', 'admin', 'qwerty', 'letmein', 'test', 'todo', 'dev', 'key', 'jwt',
];
const CHARACTER_RUNS = ['abcdefghijklmnopqrstuvwxyz', '0123456789', '`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
const DICTIONARY = [...PLACEHOLDER_WORDS, ...CHARACTER_RUNS, ...CHARACTER_RUNS.map((run) => [...run].reverse().join(''))].map((word) => [...word]);
const DICTIONARY_BITS = Math.log2(DICTIONARY.reduce((total, word) => total + word.length, 0));
/** Shorter matches cost more to describe than the characters they cover. */
const MIN_RUN = 3;
/** A secret whose first characters already carry enough entropy needs no longer look. */
const ANALYSED_LENGTH = 256;

/**
 * A secret that is obviously not random: a template (`<SIGNING_SECRET>`, `${JWT_SECRET}`), a
 * short pattern repeated, or a value whose estimated entropy is below MIN_SECRET_BITS.
 */
export function isPlaceholderSecret(secret: string): boolean {
  const trimmed = secret.trim();
  if (/^<[^>]*>$/.test(trimmed) || /^\$\{[^}]*\}$/.test(trimmed) || /^\{\{[^}]*\}\}$/.test(trimmed)) return true;
  return isRepeatedPattern(trimmed) || estimatedEntropyBits(trimmed) < MIN_SECRET_BITS;
}

/** `0123456789` × 4, `abc` × 11: a prefix of at most half the value, repeated to its end. */
function isRepeatedPattern(value: string): boolean {
  for (let size = 1; size <= value.length / 2; size++) {
    if (value.length % size === 0 && value.slice(0, size).repeat(value.length / size) === value) return true;
  }
  return false;
}

/**
 * The bits needed to describe `secret` to a decoder that knows its character classes and common
 * patterns (the idea of zxcvbn and of LZ77 compression): each position is either a literal, costing
 * log2 of the character pool, or the start of a run of at least MIN_RUN characters, costing little:
 * an arithmetic run of code points (`aaaa`, `abcd`, `9876`, `aceg`), a copy of an earlier part
 * (`abcabc`), or a placeholder word or keyboard row (`changeme`, `qwerty`). Greedy, cheapest cost
 * per character first. A random value costs about its length times log2(pool); `abcdefghijklmnop…`
 * a few dozen bits.
 */
export function estimatedEntropyBits(secret: string): number {
  const chars = [...secret].slice(0, ANALYSED_LENGTH);
  const lower = chars.map((char) => char.toLowerCase());
  const codes = chars.map((char) => char.codePointAt(0)!);
  const literalBits = Math.log2(poolSize(chars));
  const referenceBits = Math.log2(Math.max(chars.length, 2));
  let bits = 0;
  for (let at = 0; at < chars.length; ) {
    let best = { length: 1, bits: literalBits };
    const consider = (length: number, runBits: number) => {
      if (length >= MIN_RUN && runBits / length < best.bits / best.length) best = { length, bits: runBits };
    };
    if (at > 0) consider(arithmeticRunLength(codes, at), 5 + Math.log2(chars.length));
    for (let from = 0; from < at; from++) consider(commonLength(chars, at, chars, from), 2 + 2 * referenceBits);
    for (const word of DICTIONARY) {
      for (let from = 0; from < word.length; from++) consider(commonLength(lower, at, word, from), 2 + DICTIONARY_BITS + referenceBits);
    }
    bits += best.bits;
    at += best.length;
  }
  return bits;
}

/** Characters from `at` on that keep the step between the code points at `at - 1` and `at` (|step| <= 3). */
function arithmeticRunLength(codes: number[], at: number): number {
  const step = codes[at] - codes[at - 1];
  if (Math.abs(step) > 3) return 0;
  let length = 1;
  while (at + length < codes.length && codes[at + length] - codes[at + length - 1] === step) length++;
  return length;
}

function commonLength(text: string[], at: number, source: string[], from: number): number {
  let length = 0;
  while (at + length < text.length && from + length < source.length && text[at + length] === source[from + length]) length++;
  return length;
}

/** Lower case, upper case, digits, everything else: the classes the value draws from. */
function poolSize(chars: string[]): number {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  const sizes = [26, 26, 10, 33];
  return Math.max(2, classes.reduce((pool, pattern, i) => pool + (chars.some((char) => pattern.test(char)) ? sizes[i] : 0), 0));
}

/**
 * For secrets svc does not generate (a provider's client secret): a template, or a value with so
 * little entropy that it cannot be the issued one (`changeme`, `secret`, `xxxxxxxx`).
 */
export function isObviousPlaceholder(value: string): boolean {
  const trimmed = value.trim();
  return /^<[^>]*>$/.test(trimmed) || /^\$\{[^}]*\}$/.test(trimmed) || /^\{\{[^}]*\}\}$/.test(trimmed) || estimatedEntropyBits(trimmed) < 40;
}

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
/** Where each character occurs in the dictionary: the places a match starting with it can begin. */
const DICTIONARY_PLACES = new Map<string, { word: string[]; from: number }[]>();
for (const word of DICTIONARY) {
  word.forEach((char, from) => DICTIONARY_PLACES.set(char, [...(DICTIONARY_PLACES.get(char) ?? []), { word, from }]));
}

/**
 * English words that phrase-like secrets are made of (`my-super-secret-jwt-key-for-production`),
 * most common first: a word costs 2 + log2(its rank) bits, as in zxcvbn's frequency lists. The list
 * is short on purpose: it names the words people put in secrets, not the language, so a phrase of
 * rarer words is estimated by its letters (about 4.7 bits each) and a long one can still pass.
 */
const ENGLISH_WORDS = `
  the of and to in is it you that he was for on are as with his they at be this have from or one had by
  but not what all were we when your can said there use an each which she do how their if will up other
  about out many then them these so some her would make like him into time has look two more go see no
  way could my than first been call who its now find long down day did get come made may part new over
  only very just also any our well back after good give most here must too old off big end why ask
  me us let put own say set try run keep never last real best sure safe true free next open home hard
  secret key password pass token jwt auth session signing sign app api production prod staging dev
  development test testing local localhost default example sample demo change replace please insert
  super ultra mega really longer strong stronger secure security random private hidden master admin
  root user users server service client backend frontend web site company project config env
  environment value string text hash salt crypto encryption encrypt cookie refresh access oauth oidc
  bearer hmac sha aes rsa jwks nest nestjs node express svc application system data database code
  word phrase passphrase abc xyz foo bar baz qux hello world welcome letmein qwerty iloveyou monkey
  dragon sunshine princess football shadow superman batman love god money life
`.trim().split(/\s+/);
const ENGLISH_WORD_RANKS = new Map(ENGLISH_WORDS.map((word, index) => [word, index + 1]));
const LONGEST_ENGLISH_WORD = Math.max(...ENGLISH_WORDS.map((word) => word.length));
const ENGLISH_WORD_PREFIXES = new Set(ENGLISH_WORDS.flatMap((word) => [...word].map((_, end) => word.slice(0, end + 1))));

/** Shorter matches cost more to describe than the characters they cover. */
const MIN_RUN = 3;
/** `a1b2c3…` interleaves two runs: a run may step between characters this far apart. */
const MAX_RUN_STRIDE = 4;
/** A secret whose first characters already carry enough entropy needs no longer look. */
const ANALYSED_LENGTH = 256;

/**
 * A secret that is obviously not random: a template (`<SIGNING_SECRET>`, `${JWT_SECRET}`), a
 * short pattern repeated, or a value whose estimated entropy is below MIN_SECRET_BITS. The estimate
 * is the smallest of the text's and, when the text is hex, base64 or base64url, of the bytes it
 * encodes: the base64 of `0123456789…` is no more random than `0123456789…`.
 */
export function isPlaceholderSecret(secret: string): boolean {
  const trimmed = secret.trim();
  if (isTemplate(trimmed) || isRepeatedPattern(trimmed) || estimatedEntropyBits(trimmed) < MIN_SECRET_BITS) return true;
  return decodings(trimmed).some((bytes) => {
    const text = printableText(bytes);
    if (text !== null) return isRepeatedPattern(text) || estimatedEntropyBits(text) < MIN_SECRET_BITS;
    const byteChars = bytes.toString('latin1');
    return isRepeatedPattern(byteChars) || describedBits([...byteChars], 8) < MIN_SECRET_BITS;
  });
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
 * The bits needed to describe `secret` to a decoder that knows its character classes and common
 * patterns (the idea of zxcvbn and of LZ77 compression): each position is either a literal, costing
 * log2 of the character pool, or the start of a cheaper token: an arithmetic run of at least MIN_RUN
 * code points (`aaaa`, `abcd`, `9876`, `aceg`, or interleaved, `a1b2c3`), a copy of an earlier part
 * (`abcabc`), a placeholder word or keyboard row (`changeme`, `qwerty`), an English word (`super`,
 * `production`), a year (`2024`), or a separator used before (the second `-` of `my-super-key`).
 * Greedy, cheapest cost per character first. A random value costs about its length times
 * log2(pool); `abcdefghijklmnop…` a few dozen bits.
 */
export function estimatedEntropyBits(secret: string): number {
  const chars = [...secret].slice(0, ANALYSED_LENGTH);
  return describedBits(chars, Math.log2(poolSize(chars)));
}

/** estimatedEntropyBits with the cost of a literal given: 8 bits for a byte of binary data. */
function describedBits(allChars: string[], literalBits: number): number {
  const chars = allChars.slice(0, ANALYSED_LENGTH);
  const lower = chars.map((char) => char.toLowerCase());
  const codes = chars.map((char) => char.codePointAt(0)!);
  const referenceBits = Math.log2(Math.max(chars.length, 2));
  const separatorsSeen = new Set<string>();
  let bits = 0;
  for (let at = 0; at < chars.length; ) {
    let best = { length: 1, bits: literalBits };
    const consider = (length: number, tokenBits: number, minLength = MIN_RUN) => {
      if (length >= minLength && tokenBits / length < best.bits / best.length) best = { length, bits: tokenBits };
    };
    if (at > 0) consider(arithmeticRunLength(codes, at, 1), 5 + Math.log2(chars.length));
    for (let stride = 2; stride <= Math.min(MAX_RUN_STRIDE, at); stride++) {
      consider(arithmeticRunLength(codes, at, stride), 5 + Math.log2(chars.length) + Math.log2(MAX_RUN_STRIDE));
    }
    for (let from = 0; from < at; from++) consider(commonLength(chars, at, chars, from), 2 + 2 * referenceBits);
    for (const { word, from } of DICTIONARY_PLACES.get(lower[at]) ?? []) consider(commonLength(lower, at, word, from), 2 + DICTIONARY_BITS + referenceBits);
    // The candidate grows by one character a step, and stops once no word starts with it.
    for (let length = 2, candidate = lower[at]; length <= Math.min(LONGEST_ENGLISH_WORD, chars.length - at); length++) {
      candidate += lower[at + length - 1];
      if (!ENGLISH_WORD_PREFIXES.has(candidate)) break;
      const rank = ENGLISH_WORD_RANKS.get(candidate);
      if (rank !== undefined) consider(length, 2 + Math.log2(rank), 2);
    }
    if (/^(?:19|20)\d\d$/.test(chars.slice(at, at + 4).join(''))) consider(4, 2 + Math.log2(200));
    if (isSeparator(chars[at]) && separatorsSeen.has(chars[at])) consider(1, 2 + Math.log2(separatorsSeen.size), 1);
    for (const char of chars.slice(at, at + best.length)) if (isSeparator(char)) separatorsSeen.add(char);
    bits += best.bits;
    at += best.length;
  }
  return bits;
}

function isSeparator(char: string): boolean {
  return /^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e ]$/.test(char);
}

/**
 * Characters from `at` on that keep the step between the code points `stride` apart, as between
 * `at - stride` and `at` (|step| <= 3): stride 1 for `abcd`, 2 for `a1b2c3`.
 */
function arithmeticRunLength(codes: number[], at: number, stride: number): number {
  const step = codes[at] - codes[at - stride];
  if (Math.abs(step) > 3) return 0;
  let length = 1;
  while (at + length < codes.length && codes[at + length] - codes[at + length - stride] === step) length++;
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
  return isTemplate(trimmed) || estimatedEntropyBits(trimmed) < 40;
}

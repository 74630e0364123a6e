/** Shorter runs and copies cost more to describe than the characters they cover. */
const MIN_RUN = 3;
/** `a1b2c3…` interleaves two runs: a run may step between characters this far apart. */
const MAX_RUN_STRIDE = 4;
/** A secret whose first characters already carry enough entropy needs no longer look. */
export const ANALYSED_LENGTH = 256;

/**
 * The entropy bound of a secret: the bits needed to describe it to a decoder that knows its
 * character classes and the shapes a made-up value takes (the idea of LZ77 compression). Each
 * position is either a literal, costing log2 of the character pool, or the start of a cheaper
 * token: an arithmetic run of at least MIN_RUN code points (`aaaa`, `abcd`, `9876`, `aceg`, or
 * interleaved, `a1b2c3`), a copy of an earlier part (`abcabc`), or a separator used before (the
 * second `-` of `a-b-c`). Greedy, cheapest cost per character first. A random value costs about
 * its length times log2(pool); `abcdefghijklmnop…` a few dozen bits. Words and keyboard patterns
 * are the strength estimator's part (guess-estimate.ts), not this bound's.
 */
export function estimatedEntropyBits(secret: string): number {
  const chars = [...secret].slice(0, ANALYSED_LENGTH);
  return describedBits(chars, Math.log2(poolSize(chars)));
}

/** estimatedEntropyBits with the cost of a literal given: 8 bits for a byte of binary data. */
export function describedBits(allChars: string[], literalBits: number): number {
  const chars = allChars.slice(0, ANALYSED_LENGTH);
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
    for (let from = 0; from < at; from++) consider(commonLength(chars, at, from), 2 + 2 * referenceBits);
    if (isSeparator(chars[at]) && separatorsSeen.has(chars[at])) consider(1, 2 + Math.log2(separatorsSeen.size), 1);
    for (const char of chars.slice(at, at + best.length)) if (isSeparator(char)) separatorsSeen.add(char);
    bits += best.bits;
    at += best.length;
  }
  return bits;
}

/** Lower case, upper case, digits, everything else: the classes the value draws from. */
export function poolSize(chars: string[]): number {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  const sizes = [26, 26, 10, 33];
  return Math.max(2, classes.reduce((pool, pattern, i) => pool + (chars.some((char) => pattern.test(char)) ? sizes[i] : 0), 0));
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

/** How far the text from `at` repeats the text from `from`. */
function commonLength(chars: string[], at: number, from: number): number {
  let length = 0;
  while (at + length < chars.length && chars[at + length] === chars[from + length]) length++;
  return length;
}

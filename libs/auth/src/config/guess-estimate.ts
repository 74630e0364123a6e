import { type MatchExtended, ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { ANALYSED_LENGTH, poolSize } from './entropy-estimate.js';

/**
 * zxcvbn's cost grows faster than the length: each word of a secret is estimated alone, up to this
 * many characters (the rest of a longer word adds nothing, which can only refuse more).
 */
const MAX_WORD_LENGTH = 64;
/**
 * l33t variants (`s3cr3t`, `pr0duct10n`) tried per word. zxcvbn's default of 100 took 0.6–0.8 s
 * on a 64-character hex value on a busy 2-core machine; 3 finds the usual ones in 50–85 ms
 * (docs/decisions/0010-secrets.md).
 */
const L33T_SUBSTITUTIONS = 3;
/** Punctuation and space: what a separator is chosen from. */
const SEPARATOR_POOL = 33;

let estimator: ZxcvbnFactory | undefined;

/**
 * Built once per process, at the first secret (ranking the dictionaries takes ~0.2 s). Beside the
 * dictionaries it keeps only zxcvbn's scratch copy of the last word checked, part of a secret that
 * the validated options hold anyway; nothing of it is logged.
 */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    maxLength: MAX_WORD_LENGTH,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
  });
  return estimator;
}

/**
 * log2 of the guesses an attacker who knows words, names, common passwords, keyboard patterns,
 * sequences, repeats and dates needs for `secret`, by zxcvbn (@zxcvbn-ts/core with its common and
 * English dictionaries). RFC 8725 §3.5: a key must not be a human-memorable password.
 *
 * The secret is cut into words at every character that is no letter or digit and where camel case
 * starts a word (`MySecretKey`); each word is estimated by zxcvbn alone, a separator costs log2(33)
 * bits the first time and 1 + log2(separators seen) after, and the bits add up. zxcvbn's own sum
 * over a whole phrase adds a large penalty per word, so `the quick brown fox …` would pass as one
 * string. Where zxcvbn finds no pattern (its brute-force part) it counts 10 guesses a character, a
 * typed password's; here such a part counts log2 of the value's character pool a character, the
 * entropy bound's measure, so a random 32-character alphanumeric value is the ~190 bits it
 * carries, not 106.
 */
export function estimatedGuessBits(secret: string): number {
  const text = [...secret].slice(0, ANALYSED_LENGTH).join('');
  const literalBits = Math.log2(poolSize([...text]));
  const separatorsSeen = new Set<string>();
  let bits = 0;
  for (const [piece] of text.matchAll(/[\p{L}\p{N}]+|[^\p{L}\p{N}]/gu)) {
    if (/^[\p{L}\p{N}]/u.test(piece)) {
      for (const word of piece.split(/(?<=\p{Ll})(?=\p{Lu})/u)) {
        bits += zxcvbn()
          .check(word)
          .sequence.reduce((sum, match) => sum + matchBits(match, literalBits), 0);
      }
    } else {
      bits += separatorsSeen.has(piece) ? 1 + Math.log2(separatorsSeen.size) : Math.log2(SEPARATOR_POOL);
      separatorsSeen.add(piece);
    }
  }
  return bits;
}

/** A pattern's log2(guesses); a brute-force part's length × log2(pool). No guesses reported counts nothing (fails closed). */
function matchBits(match: MatchExtended, literalBits: number): number {
  if (match.pattern === 'bruteforce') return [...match.token].length * literalBits;
  const guesses: unknown = match.guesses;
  return typeof guesses === 'number' && guesses > 1 ? Math.log2(guesses) : 0;
}

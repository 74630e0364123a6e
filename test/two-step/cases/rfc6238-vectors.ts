import { describe, expect, it } from '@jest/globals';
import { fromBase32, stepOf, totpAt } from '../rfc6238.js';

/** RFC 6238 Appendix B: the SHA-1 rows (seed "12345678901234567890", 8 digits). */
const SHA1_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe("the tests' own RFC 6238 implementation", () => {
  const seed = Buffer.from('12345678901234567890', 'ascii');

  it.each(SHA1_VECTORS)('gives RFC 6238 Appendix B at %i s (SHA-1, 8 digits): %s', (seconds, expected) => {
    expect(totpAt(seed, stepOf(new Date(seconds * 1000)), { digits: 8 })).toBe(expected);
  });

  it('reads base32 (RFC 4648 §10 vectors)', () => {
    expect(fromBase32('MZXW6YTBOI').toString()).toBe('foobar');
    expect(fromBase32('MZXW6===').toString()).toBe('foo');
    expect(fromBase32('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).toBe('12345678901234567890');
  });
});

import { randomBytes } from 'node:crypto';
import { estimatedEntropyBits, estimatedGuessBits, isObviousPlaceholder, isPlaceholderSecret, MIN_SECRET_BITS } from './placeholder-secret.js';

const FOX = 'the quick brown fox jumps over the lazy dog again';
/** Each draw costs the estimator tens of milliseconds (docs/decisions/0010-secrets.md): a few draws, not hundreds. */
const DRAWS = 20;

const hex = (text: string) => Buffer.from(text).toString('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');

describe('isPlaceholderSecret', () => {
  describe('estimates the bytes a hex or base64 value encodes, not only its text', () => {
    it.each([
      ['base64 of 0123456789 × 4', base64('0123456789'.repeat(4))],
      ['base64url of 0123456789 × 4, unpadded', base64url('0123456789'.repeat(4))],
      ['base64 of a phrase', base64('my-super-secret-jwt-key-for-production')],
      ['base64 of an English sentence', base64(FOX)],
      ['base64 of an alternation', base64('a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6')],
      ['hex of an alternation', hex('a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6')],
      ['upper-case hex of an alternation', hex('a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6').toUpperCase()],
    ])('refuses %s, though its text alone estimates at 128 bits or more', (_kind, secret) => {
      expect(estimatedEntropyBits(secret)).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
      expect(isPlaceholderSecret(secret)).toBe(true);
    });

    it.each([
      ['hex of a placeholder', hex('changeme-changeme-changeme-change')],
      ['hex of a placeholder phrase', hex('your-secret-key-goes-here')],
      ['base64 of a repeated byte', Buffer.alloc(32, 7).toString('base64')],
    ])('refuses %s', (_kind, secret) => {
      expect(isPlaceholderSecret(secret)).toBe(true);
    });
  });

  it.each([
    ['a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6'],
    ['A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6'],
    ['1a2b3c4d5e6f7g8h9i0j1k2l3m4n5o6p'],
    ['aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpP'],
  ])('refuses the alternation of two runs %s', (secret) => {
    expect(estimatedEntropyBits(secret)).toBeLessThan(MIN_SECRET_BITS);
    expect(isPlaceholderSecret(secret)).toBe(true);
  });

  it.each([
    ['my-super-secret-jwt-key-for-production'],
    ['this-is-my-very-long-secret-for-the-app-2024'],
    ['this is my very long secret for the app 2024'],
    ['ThisIsMyVeryLongSecretForTheApp2024!'],
    ['MySuperSecretJwtKeyForProduction'],
    ['the_secret_key_of_my_nest_application'],
    ['super-secret-production-key-for-the-api-server'],
    ['our-company-api-secret-key-2025-do-not-share'],
    ['please-change-this-secret-before-going-to-production'],
    [FOX],
  ])('refuses the English phrase %s (zxcvbn finds its words)', (secret) => {
    expect(estimatedGuessBits(secret)).toBeLessThan(MIN_SECRET_BITS);
    expect(isPlaceholderSecret(secret)).toBe(true);
  });

  it('refuses an English sentence though its entropy bound alone is over 128 bits: the estimator counts its words', () => {
    expect(estimatedEntropyBits(FOX)).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
    expect(estimatedGuessBits(FOX)).toBeLessThan(MIN_SECRET_BITS);
    expect(isPlaceholderSecret(FOX)).toBe(true);
  });

  it('refuses words in l33t (s3cr3t, pr0duct10n)', () => {
    expect(isPlaceholderSecret('my-sup3r-s3cr3t-jwt-k3y-f0r-pr0duct10n')).toBe(true);
  });

  it.each([
    ['hex', 'hex'],
    ['base64', 'base64'],
    ['base64url', 'base64url'],
  ] as const)('never refuses 32 random bytes in %s', (_name, encoding) => {
    for (let i = 0; i < DRAWS; i++) {
      const secret = randomBytes(32).toString(encoding);
      expect([secret, isPlaceholderSecret(secret)]).toEqual([secret, false]);
    }
  });

  it('never refuses 32 random bytes in base64 without its padding', () => {
    for (let i = 0; i < DRAWS; i++) {
      const secret = randomBytes(32).toString('base64').replace(/=+$/, '');
      expect([secret, isPlaceholderSecret(secret)]).toEqual([secret, false]);
    }
  });

  it('accepts a random value that a phrase only frames', () => {
    expect(isPlaceholderSecret('my-app-Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA')).toBe(false);
  });

  it('estimates a long secret by its first 256 characters, so a long value cannot make startup slow', () => {
    const long = randomBytes(3000).toString('base64');
    expect(estimatedGuessBits(long)).toBe(estimatedGuessBits(long.slice(0, 256)));
    expect(estimatedEntropyBits(long)).toBe(estimatedEntropyBits(long.slice(0, 256)));
    expect(isPlaceholderSecret(long)).toBe(false);
  });
});

describe('isObviousPlaceholder', () => {
  it('tells issued client secrets from placeholders, on the text alone', () => {
    for (const secret of ['1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3', 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c', 'Iv1.8a61f9b3a7aba766']) expect(isObviousPlaceholder(secret)).toBe(false);
    for (const secret of ['changeme', 'secret', 'xxxxxxxx', '${GITHUB_SECRET}', '<CLIENT_SECRET>']) expect(isObviousPlaceholder(secret)).toBe(true);
  });
});

import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { JwtKeyRing } from './jwt-key-ring.js';

const SECRET = 'bN4xQ7pV2kR9mW3tY6hC8jF1gD5sLzAe';
const pem = (pair: { privateKey: { export(options: { type: 'pkcs8'; format: 'pem' }): string | Buffer } }) => pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('JwtKeyRing', () => {
  it('without jwt.signing: one HMAC key, whatever the kid, and nothing published', async () => {
    const ring = await JwtKeyRing.of({ secretKey: SECRET, algorithm: 'HS512' });
    expect(ring.algorithm).toBe('HS512');
    expect(ring.signingKid).toBeUndefined();
    expect(ring.publicJwks).toEqual([]);
    expect(ring.verificationKey({ alg: 'HS512', kid: 'anything' })).toBe(ring.signingKey);
    expect(() => ring.verificationKey({ alg: 'HS256' })).toThrow();
  });

  it.each([
    ['EdDSA', () => generateKeyPairSync('ed25519')],
    ['ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
    ['RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ] as const)('%s: the first key signs, each kid finds its own key, and the published JWKs hold no private member', async (algorithm, generate) => {
    const keys = [{ kid: 'a', privateKey: pem(generate()) }, { kid: 'b', privateKey: pem(generate()) }];
    const ring = await JwtKeyRing.of({ secretKey: SECRET, algorithm: 'HS256', signing: { algorithm, keys, issuer: 'i', audience: 'a' } });
    expect(ring.signingKid).toBe('a');
    expect(ring.publicJwks.map((jwk) => [jwk.kid, jwk.alg, jwk.use])).toEqual([
      ['a', algorithm, 'sig'],
      ['b', algorithm, 'sig'],
    ]);
    for (const jwk of ring.publicJwks) for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(jwk).not.toHaveProperty(member);
    expect(ring.verificationKey({ alg: algorithm, kid: 'a' })).not.toBe(ring.verificationKey({ alg: algorithm, kid: 'b' }));
    expect(() => ring.verificationKey({ alg: algorithm, kid: 'c' })).toThrow();
    expect(() => ring.verificationKey({ alg: algorithm })).toThrow();
    expect(() => ring.verificationKey({ alg: 'HS256', kid: 'a' })).toThrow();
  });
});

import type { Provider } from '@nestjs/common';
import { createPublicKey, type webcrypto } from 'node:crypto';
import { exportJWK, importJWK, importPKCS8, type JWK, type JWSHeaderParameters } from 'jose';
import { importJwtKey } from './jwt-key.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';

/** Injection token of the jwt credential's `JwtKeyRing`, built once at startup. */
export const JWT_KEY_RING = Symbol('svc:JWT_KEY_RING');

/** A public JWK as `<prefix>/jwks` publishes it (RFC 7517 §4): the key's own members, `kid`, `alg` and `use: "sig"`. */
export type PublishedJwk = JWK & { readonly kid: string; readonly alg: string; readonly use: 'sig' };

/** The members of a JWK that hold private key material (RFC 7518 §6.2.2, §6.3.2, RFC 8037 §2; `k`: a symmetric key). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * The keys access tokens are signed and verified with, every one imported once at startup (never
 * per request). The first configured key signs; every configured key verifies the tokens whose
 * `kid` names it (rotation, docs/decisions/0031-signing-keys.md). Without `jwt.signing`, or with
 * HS256, one HMAC key over `jwt.secretKey` does both, as before, and nothing is published.
 */
export class JwtKeyRing {
  private constructor(
    /** The algorithm every token must name: one per ring (RFC 8725 §3.1). */
    readonly algorithm: string,
    readonly signingKey: webcrypto.CryptoKey,
    /** The `kid` header of the tokens signed now; undefined for HMAC. */
    readonly signingKid: string | undefined,
    private readonly verifyingKeys: ReadonlyMap<string, webcrypto.CryptoKey> | webcrypto.CryptoKey,
    /** The public keys `<prefix>/jwks` answers with; empty for HMAC. */
    readonly publicJwks: readonly PublishedJwk[],
  ) {}

  static async of(jwt: Pick<JwtSettings, 'secretKey' | 'algorithm' | 'signing'>): Promise<JwtKeyRing> {
    const signing = jwt.signing;
    if (signing === undefined || signing.algorithm === 'HS256') {
      const algorithm = signing === undefined ? jwt.algorithm : 'HS256';
      const key = await importJwtKey({ secretKey: jwt.secretKey, algorithm });
      return new JwtKeyRing(algorithm, key, undefined, key, []);
    }
    const { algorithm } = signing;
    const verifying = new Map<string, webcrypto.CryptoKey>();
    const published: PublishedJwk[] = [];
    for (const { kid, privateKey } of signing.keys) {
      const jwk = await publicJwkOf(privateKey, kid, algorithm);
      published.push(jwk);
      verifying.set(kid, (await importJWK(jwk, algorithm)) as webcrypto.CryptoKey);
    }
    const first = signing.keys[0]!;
    return new JwtKeyRing(algorithm, (await importPKCS8(first.privateKey, algorithm)) as webcrypto.CryptoKey, first.kid, verifying, Object.freeze(published));
  }

  /**
   * jose's key resolver for `jwtVerify`: the key the token's `kid` names, only for that key's
   * algorithm (RFC 8725 §3.1: the algorithm is the key's, never the token's choice). An unknown or
   * missing `kid` throws, and the token is refused. With HMAC, the one key whatever the `kid`
   * (RFC 8725 §3.10: nothing in the token picks it).
   */
  readonly verificationKey = (header: JWSHeaderParameters): webcrypto.CryptoKey => {
    if (header.alg !== this.algorithm) throw new TypeError('svc: token algorithm is not the key ring\'s');
    if (!(this.verifyingKeys instanceof Map)) return this.verifyingKeys as webcrypto.CryptoKey;
    const key = typeof header.kid === 'string' ? this.verifyingKeys.get(header.kid) : undefined;
    if (key === undefined) throw new TypeError('svc: token kid names no configured key');
    return key;
  };
}

/** The public half as a JWK, built from the public KeyObject (never from the private key's JWK), with no private member. */
async function publicJwkOf(privateKeyPem: string, kid: string, alg: string): Promise<PublishedJwk> {
  const jwk = await exportJWK(createPublicKey(privateKeyPem));
  // Fails closed: a private member in a published key would give the signing key away.
  for (const member of PRIVATE_MEMBERS) if (member in jwk) throw new TypeError(`svc: the public JWK of ${kid} holds a private member`);
  return Object.freeze({ ...jwk, kid, alg, use: 'sig' });
}

export const jwtKeyRingProvider: Provider = { provide: JWT_KEY_RING, useFactory: (jwt: JwtSettings) => JwtKeyRing.of(jwt), inject: [JWT_SETTINGS] };

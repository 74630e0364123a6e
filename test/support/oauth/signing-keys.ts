import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { RSA_TEST_KEYS } from './rsa-test-keys.js';

/** The key types a provider signs id_tokens with, named by the JWS algorithm family that uses them. */
export type SigningKeyType = 'RSA' | 'EC' | 'OKP';

/** A signing key pair with its JWK forms; `kid` is the RFC 7638 thumbprint of the public key. */
export interface SigningKey {
  kid: string;
  type: SigningKeyType;
  privateKey: CryptoKey;
  privateJwk: JWK;
  publicJwk: JWK;
}

const GENERATION_ALG: Record<SigningKeyType, string> = { RSA: 'RS256', EC: 'ES256', OKP: 'Ed25519' };

/** The prepared RSA keys this test file has not used yet: each call gets another key. */
let nextPreparedRsaKey = 0;

/**
 * A prepared RSA key (a private JWK) that no other caller in this test file got, while RSA_TEST_KEYS
 * has one left; else undefined, and the caller generates one.
 */
export function takePreparedRsaKey(): (typeof RSA_TEST_KEYS)[number] | undefined {
  return RSA_TEST_KEYS[nextPreparedRsaKey++];
}

/**
 * A new signing key of `type`. RSA keys come from RSA_TEST_KEYS while this file has unused ones
 * (generating one costs up to a second of CPU), then are generated; EC and OKP keys are generated
 * (a millisecond). Within a test file no two calls return the same key.
 */
export async function generateSigningKey(type: SigningKeyType): Promise<SigningKey> {
  const prepared = type === 'RSA' ? takePreparedRsaKey() : undefined;
  const { privateKey, publicKey } = prepared ? await importPrepared(prepared) : await generateKeyPair(GENERATION_ALG[type], { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    type,
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), kid, use: 'sig' },
    publicJwk: { ...publicJwk, kid, use: 'sig' },
  };
}

async function importPrepared(jwk: (typeof RSA_TEST_KEYS)[number]): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  const { kty, n, e } = jwk;
  const [privateKey, publicKey] = await Promise.all([importJWK(jwk, 'RS256', { extractable: true }), importJWK({ kty, n, e }, 'RS256', { extractable: true })]);
  return { privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey };
}

/** One key of each type: what an OpenID Provider needs to sign with RS256, PS256, ES256 and Ed25519. */
export function generateSigningKeySet(): Promise<SigningKey[]> {
  return Promise.all((['RSA', 'EC', 'OKP'] as const).map(generateSigningKey));
}

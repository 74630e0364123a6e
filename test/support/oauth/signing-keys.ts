import { calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

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

export async function generateSigningKey(type: SigningKeyType): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(GENERATION_ALG[type], { extractable: true });
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

/** One key of each type: what an OpenID Provider needs to sign with RS256, PS256, ES256 and Ed25519. */
export function generateSigningKeySet(): Promise<SigningKey[]> {
  return Promise.all((['RSA', 'EC', 'OKP'] as const).map(generateSigningKey));
}

import { createHmac, KeyObject, sign } from 'node:crypto';
import type { SigningKey } from './signing-keys.js';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** How the signature bytes are made, whatever the header claims. */
export type JwsSigner = { kind: 'none' } | { kind: 'hmac-sha256'; secret: string } | { kind: 'key'; key: SigningKey };

/**
 * A compact JWS (RFC 7515 §7.1) with exactly the header and payload given, signed as `signer`
 * says. Written by hand rather than with jose's signers because a hostile header must be able to
 * lie about its `alg` and `kid`.
 */
export function compactJws(header: Record<string, unknown>, payload: Record<string, unknown>, signer: JwsSigner): string {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${signature(input, signer).toString('base64url')}`;
}

/** The header's algorithm when a key signs: RS256, ES256 or Ed25519 by key type. */
export function algorithmOf(key: SigningKey): string {
  return { RSA: 'RS256', EC: 'ES256', OKP: 'Ed25519' }[key.type];
}

function signature(input: string, signer: JwsSigner): Buffer {
  if (signer.kind === 'none') return Buffer.alloc(0);
  if (signer.kind === 'hmac-sha256') return createHmac('sha256', signer.secret).update(input).digest();
  const privateKey = KeyObject.from(signer.key.privateKey);
  if (signer.key.type === 'OKP') return sign(null, Buffer.from(input), privateKey);
  // RFC 7518 §3.4: ECDSA signatures are the raw R || S concatenation, not DER.
  return sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
}

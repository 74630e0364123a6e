import { createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The HMAC key of `jwt.secretKey` as a `KeyObject`. `jsonwebtoken` given a string first tries it
 * as a public key (about 40 times slower per verification); a secret `KeyObject` also makes it
 * refuse every asymmetric `alg` outright (RFC 8725 §2.1, algorithm confusion).
 */
export function jwtSigningKey(secretKey: string): KeyObject {
  return createSecretKey(Buffer.from(secretKey, 'utf8'));
}

/**
 * The key as passport-jwt's options take it. @types/passport-jwt declares `secretOrKey` as
 * `string | Buffer`, but the jsonwebtoken 9 it calls also takes (and is fastest with) a KeyObject;
 * this is the one place that bridges the declaration and what runs.
 */
export function verificationKey(secretKey: string): string | Buffer {
  return jwtSigningKey(secretKey) as unknown as Buffer;
}

import { createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The HMAC key of `jwt.secretKey` as a `KeyObject`. `jsonwebtoken` given a string first tries it
 * as a public key (about 40 times slower per verification); a secret `KeyObject` also makes it
 * refuse every asymmetric `alg` outright (RFC 8725 §2.1, algorithm confusion).
 */
export function jwtSigningKey(secretKey: string): KeyObject {
  return createSecretKey(Buffer.from(secretKey, 'utf8'));
}

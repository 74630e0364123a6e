import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { JwtSigningConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { JwtOptions } from './auth-options.js';
import { oneOf } from './option-rules.js';

export const SIGNING_ALGORITHMS = ['EdDSA', 'ES256', 'RS256', 'HS256'] as const;
const MAX_KEYS = 10;
/** NIST SP 800-131A Rev. 2 and RFC 7518 §3.3: RSA keys of 2048 bits or more. */
const RSA_MIN_BITS = 2048;

/**
 * `jwt.signing`, `jwt.issuer` and `jwt.audience` (docs/guides/machine-access.md). Every key is parsed
 * here, once, so a key of the wrong type, a duplicate or empty `kid` or an unreadable PEM stops
 * startup naming its field; the PEM is kept (normalised to PKCS #8) and imported once by the key ring.
 * Without `signing`, `issuer` and `audience` would not take effect and are refused.
 */
export function validateJwtSigning(jwt: JwtOptions | undefined, baseUrl: string): JwtSigningConfig | undefined {
  const signing = jwt?.signing;
  if (signing === undefined) {
    for (const field of ['issuer', 'audience'] as const) {
      if (jwt?.[field] !== undefined) throw new AuthConfigError(`jwt.${field}`, 'is given without jwt.signing: access tokens carry iss and aud only with it');
    }
    return undefined;
  }
  if (signing === null || typeof signing !== 'object') throw new AuthConfigError('jwt.signing', 'must be an object { algorithm, keys }', signing);
  if (signing.algorithm === undefined) throw new AuthConfigError('jwt.signing.algorithm', `is required (one of ${SIGNING_ALGORITHMS.join(', ')})`);
  const algorithm = oneOf('jwt.signing.algorithm', signing.algorithm, 'HS256', SIGNING_ALGORITHMS);
  if (jwt?.algorithm !== undefined) throw new AuthConfigError('jwt.algorithm', 'is given with jwt.signing: give the algorithm once, as jwt.signing.algorithm');
  return { algorithm, keys: signingKeys(algorithm, signing.keys), issuer: claimValue('jwt.issuer', jwt?.issuer, baseUrl), audience: claimValue('jwt.audience', jwt?.audience, baseUrl) };
}

function signingKeys(algorithm: JwtSigningConfig['algorithm'], keys: unknown): JwtSigningConfig['keys'] {
  if (algorithm === 'HS256') {
    if (keys !== undefined && !(Array.isArray(keys) && keys.length === 0)) throw new AuthConfigError('jwt.signing.keys', 'must be left out with HS256: it signs with jwt.secretKey');
    return [];
  }
  if (!Array.isArray(keys) || keys.length === 0) throw new AuthConfigError('jwt.signing.keys', `is required with ${algorithm} (a list of { kid, privateKey }, the signing key first)`);
  if (keys.length > MAX_KEYS) throw new AuthConfigError('jwt.signing.keys', `must hold at most ${MAX_KEYS} keys`, keys.length);
  const seen = new Set<string>();
  return keys.map((entry: unknown, i) => {
    const field = `jwt.signing.keys[${i}]`;
    if (entry === null || typeof entry !== 'object') throw new AuthConfigError(field, 'must be an object { kid, privateKey }', entry);
    const { kid, privateKey } = entry as Record<string, unknown>;
    if (typeof kid !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(kid)) throw new AuthConfigError(`${field}.kid`, 'must be 1..64 characters of A-Z, a-z, 0-9, ".", "_" and "-"', kid);
    if (seen.has(kid)) throw new AuthConfigError(`${field}.kid`, 'must be unique among jwt.signing.keys', kid);
    seen.add(kid);
    return { kid, privateKey: privateKeyPem(`${field}.privateKey`, algorithm, privateKey) };
  });
}

/** The key as PKCS #8 PEM, once it is known to be a private key the algorithm uses (RFC 8725 §3.1: one key, one algorithm). Its value is never quoted. */
function privateKeyPem(field: string, algorithm: Exclude<JwtSigningConfig['algorithm'], 'HS256'>, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new AuthConfigError(field, 'is required (a PKCS #8 PEM private key)');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: value, format: 'pem' });
  } catch {
    throw new AuthConfigError(field, 'is not a readable PEM private key');
  }
  const problem = mismatchOf(algorithm, key);
  if (problem) throw new AuthConfigError(field, problem);
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

function mismatchOf(algorithm: Exclude<JwtSigningConfig['algorithm'], 'HS256'>, key: KeyObject): string | undefined {
  const type = key.asymmetricKeyType;
  if (algorithm === 'EdDSA') return type === 'ed25519' ? undefined : `must be an Ed25519 key for EdDSA (got a ${type} key)`;
  if (algorithm === 'ES256') return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? undefined : `must be a P-256 EC key for ES256 (got a ${describe(key)} key)`;
  if (type !== 'rsa') return `must be an RSA key for RS256 (got a ${describe(key)} key)`;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  return bits >= RSA_MIN_BITS ? undefined : `must be an RSA key of at least ${RSA_MIN_BITS} bits (got ${bits})`;
}

function describe(key: KeyObject): string {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return curve ? `${key.asymmetricKeyType} ${curve}` : String(key.asymmetricKeyType);
}

/** `iss` / `aud` (RFC 7519 §4.1.1, §4.1.3: a StringOrURI): a non-empty string, default the base URL exactly (no trailing slash). */
function claimValue(field: string, value: unknown, baseUrl: string): string {
  if (value === undefined) return baseUrl;
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) throw new AuthConfigError(field, 'must be a non-empty string of at most 512 characters', value);
  return value;
}

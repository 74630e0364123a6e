import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { CredentialKind, JwtSigningOptions } from '#svc/auth';
import { DemoConfigError } from './demo-config.error.js';

const ALGORITHMS = ['EdDSA', 'ES256', 'RS256'] as const;
type AsymmetricAlgorithm = (typeof ALGORITHMS)[number];

/** AUTH_JWT_ALG and AUTH_JWT_KEYS: the jwt credential's signing keys (docs/guides/machine-access.md); `generated` when no key was given. */
export interface DemoJwtSigning {
  signing: JwtSigningOptions;
  generated: boolean;
}

/**
 * AUTH_JWT_ALG (`EdDSA`, `ES256`, `RS256`; unset: HMAC over the secret, no /auth/jwks) with AUTH_JWT_KEYS,
 * a JSON list `[{ "kid", "privateKey" }]` (PKCS #8 PEM), checked further by svc at startup. Without
 * AUTH_JWT_KEYS one key is generated for this run: tokens die with the process.
 */
export function readJwtSigning(env: NodeJS.ProcessEnv, credential: CredentialKind): DemoJwtSigning | undefined {
  const algorithm = env.AUTH_JWT_ALG;
  const keys = env.AUTH_JWT_KEYS;
  if (algorithm === undefined || algorithm === '') {
    if (keys !== undefined && keys !== '') throw new DemoConfigError('AUTH_JWT_KEYS', 'needs AUTH_JWT_ALG (EdDSA, ES256 or RS256)');
    return undefined;
  }
  if (!(ALGORITHMS as readonly string[]).includes(algorithm)) throw new DemoConfigError('AUTH_JWT_ALG', `must be one of ${ALGORITHMS.join(', ')} (unset: HS256)`);
  if (credential !== 'jwt') throw new DemoConfigError('AUTH_JWT_ALG', 'is read only with the jwt credential (AUTH_STRATEGY=jwt, or AUTH_CREDENTIAL=jwt)');
  const alg = algorithm as AsymmetricAlgorithm;
  if (keys === undefined || keys === '') return { signing: { algorithm: alg, keys: [{ kid: `demo-${randomBytes(4).toString('hex')}`, privateKey: generatedKey(alg) }] }, generated: true };
  return { signing: { algorithm: alg, keys: parsedKeys(keys) }, generated: false };
}

function parsedKeys(raw: string): { kid: string; privateKey: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DemoConfigError('AUTH_JWT_KEYS', 'must be JSON: [{ "kid": "...", "privateKey": "-----BEGIN PRIVATE KEY-----..." }]');
  }
  const isKey = (entry: unknown) => entry !== null && typeof entry === 'object' && typeof (entry as { kid?: unknown }).kid === 'string' && typeof (entry as { privateKey?: unknown }).privateKey === 'string';
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isKey)) throw new DemoConfigError('AUTH_JWT_KEYS', 'must be a non-empty JSON list of { "kid", "privateKey" } (the signing key first)');
  return (parsed as { kid: string; privateKey: string }[]).map(({ kid, privateKey }) => ({ kid, privateKey }));
}

function generatedKey(algorithm: AsymmetricAlgorithm): string {
  const pair =
    algorithm === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : algorithm === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 3072 });
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** What `SvcJwtModule` is told of the svc service whose access tokens it accepts (docs/guides/machine-access.md). */
export interface SvcJwtOptions {
  /** svc's key set, `<baseUrl><prefix>/jwks` (an absolute http(s) URL; https in production). */
  jwksUrl: string;
  /** The tokens' `iss`: svc's `jwt.issuer`, by default its `baseUrl`. */
  issuer: string;
  /** The tokens' `aud`: svc's `jwt.audience`, by default its `baseUrl`. */
  audience: string;
  /** The algorithm svc signs with (`jwt.signing.algorithm`). @default ['EdDSA', 'ES256', 'RS256'] */
  algorithms?: readonly ('EdDSA' | 'ES256' | 'RS256')[];
  /** Seconds the fetched key set is kept before it is fetched again. @default 300 (svc's `Cache-Control: max-age`) */
  jwksCacheSeconds?: number;
  /** Least seconds between two fetches caused by a token whose `kid` is not in the set (a floor on refetches). @default 30 */
  jwksCooldownSeconds?: number;
  /** The clock `exp`, `nbf` and `iat` are checked against (tests). @default the system clock */
  clock?: { now(): Date };
}

/** `request.user` on a route guarded by `AuthGuard('svc-jwt')`: who the token names and what svc granted them when it was signed. */
export interface SvcJwtUser {
  id: string;
  /** The roles the user held at signing (svc with an `authorization` section), else []. */
  roles: string[];
  /** The permissions of those roles, else []. */
  permissions: string[];
  /** A token's `scope` (RFC 8693 §4.2), split; absent when the token has none. */
  scopes?: string[];
}

/** The checked options, with their defaults. */
export interface SvcJwtSettings {
  readonly jwksUrl: URL;
  readonly issuer: string;
  readonly audience: string;
  readonly algorithms: readonly string[];
  readonly jwksCacheMs: number;
  readonly jwksCooldownMs: number;
  readonly clock: { now(): Date };
}

const ALGORITHMS = ['EdDSA', 'ES256', 'RS256'] as const;

/** Each option on its own, with a `TypeError` naming it; HMAC algorithms are refused (a shared secret is no key to publish). */
export function svcJwtSettingsOf(options: SvcJwtOptions): SvcJwtSettings {
  if (options === null || typeof options !== 'object') throw new TypeError('svc/passport: SvcJwtModule needs { jwksUrl, issuer, audience }');
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(options.jwksUrl);
  } catch {
    throw new TypeError(`svc/passport: jwksUrl must be an absolute URL (got ${JSON.stringify(options.jwksUrl)})`);
  }
  if (jwksUrl.protocol !== 'https:' && jwksUrl.protocol !== 'http:') throw new TypeError('svc/passport: jwksUrl must be an http(s) URL');
  for (const field of ['issuer', 'audience'] as const) {
    if (typeof options[field] !== 'string' || options[field].length === 0) throw new TypeError(`svc/passport: ${field} is required (a non-empty string, svc's jwt.${field} or its baseUrl)`);
  }
  const algorithms = options.algorithms ?? ALGORITHMS;
  if (!Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every((alg) => (ALGORITHMS as readonly string[]).includes(alg))) {
    throw new TypeError(`svc/passport: algorithms must be a non-empty list of ${ALGORITHMS.join(', ')}`);
  }
  return {
    jwksUrl,
    issuer: options.issuer,
    audience: options.audience,
    algorithms: [...algorithms],
    jwksCacheMs: seconds('jwksCacheSeconds', options.jwksCacheSeconds, 300) * 1000,
    jwksCooldownMs: seconds('jwksCooldownSeconds', options.jwksCooldownSeconds, 30) * 1000,
    clock: options.clock ?? { now: () => new Date() },
  };
}

function seconds(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 86_400) throw new TypeError(`svc/passport: ${field} must be an integer between 0 and 86400`);
  return value;
}

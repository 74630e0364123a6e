/** The claims of an access token the library minted (contract §3). */
export interface AccessTokenClaims {
  /** The user id. */
  sub: string;
  /** The refresh family the token was issued with. */
  sid: string;
  jti: string;
  typ: 'access';
  iat: number;
  exp: number;
  nbf?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tolerated clock difference between instances for `iat` and `nbf` (RFC 7519 §4.1.5: "small leeway"). */
const CLOCK_SKEW_SECONDS = 5;

/**
 * The claims of a verified token, or null when one is missing or wrong. The signature and `alg`
 * were checked before; this checks what the library relies on: `typ` is `access` (RFC 8725 §3.11,
 * no other token type is accepted in its place), `sub` and `sid` are UUIDs, `exp` is present and
 * in the future, `iat` and `nbf` not in the future (RFC 7519 §4.1.4, §4.1.5, §4.1.6), all against
 * the injected clock.
 */
export function accessTokenClaimsOf(payload: unknown, now: Date): AccessTokenClaims | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const claims = payload as Record<string, unknown>;
  const nowSeconds = now.getTime() / 1000;
  if (claims.typ !== 'access') return null;
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) return null;
  if (typeof claims.sid !== 'string' || !UUID.test(claims.sid)) return null;
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 64) return null;
  if (!isNumericDate(claims.exp) || claims.exp <= nowSeconds) return null;
  if (!isNumericDate(claims.iat) || claims.iat > nowSeconds + CLOCK_SKEW_SECONDS) return null;
  if (claims.nbf !== undefined && (!isNumericDate(claims.nbf) || claims.nbf > nowSeconds + CLOCK_SKEW_SECONDS)) return null;
  return claims as unknown as AccessTokenClaims;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

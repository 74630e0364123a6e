import { isUuid } from '../../persistence/uuid.js';

/** The claims of an access token the library minted (docs/decisions/0012-access-tokens-jwt.md). */
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
  /** The administrator acting as the user (RFC 8693 §4.1, the actor claim), on an impersonation's tokens only. */
  act?: { sub: string };
  /**
   * The organization the family acted in when the token was signed (docs/guides/organizations.md), for
   * whoever reads the token; svc itself decides on the family's membership as it stands at each request.
   */
  org?: string;
}

/** Tolerated clock difference between instances for `iat` (RFC 7519 §4.1.6 leaves it to the verifier). */
const CLOCK_SKEW_SECONDS = 5;

/**
 * The claims of a verified token, or null when one is missing or wrong. jose checked before, and
 * this does not check again: the signature and `alg`; `exp` and `iat` present; `exp` and `nbf`
 * numbers, against the injected clock. This checks what else the library relies on: `typ` is
 * `access`, a claim no other token the library signs carries (RFC 8725 §3.12: mutually exclusive
 * validation rules for different kinds of JWTs); `sub` and `sid` are UUIDs; `jti` is a short
 * string; `iat` is not in the future.
 */
export function accessTokenClaimsOf(payload: unknown, now: Date): AccessTokenClaims | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const claims = payload as Record<string, unknown>;
  if (claims.typ !== 'access') return null;
  if (!isUuid(claims.sub) || !isUuid(claims.sid)) return null;
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 64) return null;
  if (!isNumericDate(claims.iat) || claims.iat > now.getTime() / 1000 + CLOCK_SKEW_SECONDS) return null;
  // Fails closed: an `act` the library did not write is no token of its own.
  if (claims.act !== undefined && !isActor(claims.act)) return null;
  if (claims.org !== undefined && !isUuid(claims.org)) return null;
  return claims as unknown as AccessTokenClaims;
}

function isActor(value: unknown): value is { sub: string } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && isUuid((value as { sub?: unknown }).sub);
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

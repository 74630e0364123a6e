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
  /** With `jwt.signing`: the issuer and the audience (RFC 7519 §4.1.1, §4.1.3), checked by jose. */
  iss?: string;
  aud?: string;
  /** With `jwt.signing` and `authorization`: for other services only; this service reads the user's roles from its database. */
  roles?: string[];
  permissions?: string[];
  /** The last real sign-in of the token's family, epoch seconds (OIDC Core §2, `auth_time`; docs/decisions/0028-fresh-sign-in.md). */
  auth_time?: number;
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
  // A sign-in after the token was issued is no sign-in the token could record.
  if (claims.auth_time !== undefined && (!isNumericDate(claims.auth_time) || claims.auth_time > claims.iat)) return null;
  if (claims.org !== undefined && !isUuid(claims.org)) return null;
  return claims as unknown as AccessTokenClaims;
}

function isActor(value: unknown): value is { sub: string } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && isUuid((value as { sub?: unknown }).sub);
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The token's `auth_time` as a date; null when it has none (a token minted before the claim existed: never fresh). */
export function authTimeOfClaims(claims: Pick<AccessTokenClaims, 'auth_time'>): Date | null {
  return claims.auth_time === undefined ? null : new Date(claims.auth_time * 1000);
}

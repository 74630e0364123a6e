import { hash } from 'node:crypto';
import type { AccessTokenClaims } from './access-token-claims.js';

/** About 250 bytes an entry (a 43-character digest and the claims): some 2.5 MB at most. */
export const VERIFIED_ACCESS_TOKENS_MAX = 10_000;

/**
 * Access tokens whose signature jose has verified lately, so that a client presenting the same
 * token on every request costs one SHA-256 and a map lookup instead of an HMAC verification each
 * time (docs/decisions/0012-access-tokens-jwt.md). Keyed by the token's SHA-256, never the token itself, as
 * session cookies are: a lookup compares digests, not a secret's characters. What depends on the
 * time (`exp`, `nbf`, `iat`) is checked again at every use against the injected clock; whether the
 * token's family is still live is not this class's concern (it is read, or served by the principal
 * cache, after it). Bounded: the least recently used goes first.
 */
export class VerifiedAccessTokens {
  private readonly entries = new Map<string, Readonly<AccessTokenClaims>>();

  constructor(private readonly maxEntries = VERIFIED_ACCESS_TOKENS_MAX) {}

  /** SHA-256 in one call (`crypto.hash`, Node 20.12+): the same digest as `createHash`, without a Hash object per request. */
  static digestOf(token: string): string {
    return hash('sha256', token, 'base64url');
  }

  /** The claims of a token verified before, if they still hold at `now`. */
  claimsAt(digest: string, now: Date): Readonly<AccessTokenClaims> | undefined {
    const claims = this.entries.get(digest);
    if (claims === undefined) return undefined;
    if (!holdsAt(claims, now)) {
      this.entries.delete(digest);
      return undefined;
    }
    // Most recently used last: the Map's order is the eviction order.
    this.entries.delete(digest);
    this.entries.set(digest, claims);
    return claims;
  }

  remember(digest: string, claims: AccessTokenClaims): void {
    this.entries.delete(digest);
    this.entries.set(digest, Object.freeze({ ...claims }));
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** Tolerated clock difference between instances for `iat`, as `accessTokenClaimsOf` allows. */
const CLOCK_SKEW_SECONDS = 5;

/** RFC 7519 §4.1.4 and §4.1.5, as jose checks them: `exp` after now, `nbf` not after now; `iat` not in the future. */
function holdsAt(claims: Readonly<AccessTokenClaims>, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= seconds) return false;
  if (claims.nbf !== undefined && claims.nbf > seconds) return false;
  return claims.iat <= now.getTime() / 1000 + CLOCK_SKEW_SECONDS;
}

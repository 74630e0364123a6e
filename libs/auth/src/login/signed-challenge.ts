import type { Request, Response } from 'express';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { readCookie } from '../http/cookies.js';

/** One purpose's signed challenges: its token type, its key and its lifetime. */
export interface SignedChallengeSpec {
  /** RFC 8725 §3.11: an explicit type per purpose, so that no other token signed with a key of the module passes for this one. */
  type: string;
  /** The purpose's own key, derived from the module's secret for it alone (empty: nothing verifies). */
  key: Uint8Array;
  /** Read when a token is minted or verified: the section may be absent when the feature is off. */
  ttlSeconds: () => number;
}

/**
 * The signed challenge every ceremony between two requests uses (the two-step login's challenge,
 * the passkey ceremony's): a JWS (HS256 under the purpose's derived key) with the purpose's claims,
 * its issue time and expiry, checked against the injected clock. Signed, not encrypted: what it
 * carries is bound to this browser, not hidden from it. The purpose checks its own claims.
 */
export class SignedChallenge {
  constructor(
    private readonly clock: Clock,
    private readonly spec: SignedChallengeSpec,
  ) {}

  /** A token carrying `claims`, issued now, expiring after the purpose's lifetime. */
  mint(claims: JWTPayload): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: this.spec.type })
      .setIssuedAt(now)
      .setExpirationTime(now + this.spec.ttlSeconds())
      .sign(this.spec.key);
  }

  /** The claims of `token` if it is one of this purpose's, untampered and unexpired by the injected clock; else null (fails closed). */
  async verify(token: string | undefined, requiredClaims: string[]): Promise<Record<string, unknown> | null> {
    if (token === undefined || this.spec.key.length === 0) return null;
    try {
      const { payload } = await jwtVerify(token, this.spec.key, {
        algorithms: ['HS256'],
        typ: this.spec.type,
        currentDate: this.clock.now(),
        requiredClaims: ['iat', 'exp', ...requiredClaims],
        maxTokenAge: this.spec.ttlSeconds(),
      });
      return payload;
    } catch {
      return null;
    }
  }
}

/** One purpose's challenge cookie: its name, its SameSite and its lifetime. */
export interface ChallengeCookieSpec {
  name: string;
  sameSite: 'lax' | 'strict';
  /** Read when the cookie is set: the section may be absent when the feature is off. */
  ttlSeconds: () => number;
}

/**
 * The cookie a signed challenge travels in: HttpOnly, Secure and Domain from the cookie section,
 * Path = the prefix (sent to svc's routes only), Max-Age = the challenge's lifetime.
 */
export class ChallengeCookie {
  constructor(
    private readonly config: AuthConfig,
    private readonly spec: ChallengeCookieSpec,
  ) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.spec.name);
  }

  set(response: Response, token: string): void {
    response.cookie(this.spec.name, token, { ...this.attributes(), maxAge: this.spec.ttlSeconds() * 1000 });
  }

  clear(response: Response): void {
    response.clearCookie(this.spec.name, this.attributes());
  }

  private attributes() {
    return { httpOnly: true, secure: this.config.cookie.secure, sameSite: this.spec.sameSite, path: this.config.prefix, domain: this.config.cookie.domain };
  }
}

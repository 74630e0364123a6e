import { Inject, Injectable } from '@nestjs/common';
import { jwtVerify, SignJWT } from 'jose';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { OAuthAttempt } from './oauth-attempt.js';
import type { OAuthProviderClient } from './oauth-provider-client.js';

/** RFC 8725 §3.11: an explicit type, so that no other token signed with the same key passes for this one. */
const STATE_TYPE = 'svc-oauth-state+jwt';

interface StateClaims {
  prv: string;
  sta: string;
  cv?: string;
  nce?: string;
  rdr: string;
  lnk?: string;
  rau?: string;
  rat?: number;
}

/**
 * The state cookie's value: a JWS (HS256 with the provider's section key) carrying the attempt,
 * its issue time and its expiry (`stateTtlSeconds`), all checked against the injected clock. Signed,
 * not encrypted: only the browser that started the login holds the HttpOnly cookie.
 */
@Injectable()
export class OAuthStateTokens {
  private readonly encoder = new TextEncoder();

  constructor(@Inject(AUTH_CLOCK) private readonly clock: Clock) {}

  mint(provider: OAuthProviderClient, attempt: OAuthAttempt): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const claims: StateClaims = { prv: attempt.provider, sta: attempt.state, cv: attempt.codeVerifier, nce: attempt.nonce, rdr: attempt.redirect, lnk: attempt.linkUserId, rau: attempt.reauth?.userId, rat: attempt.reauth?.requestedAt };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: STATE_TYPE })
      .setIssuedAt(now)
      .setExpirationTime(now + provider.section.stateTtlSeconds)
      .sign(this.encoder.encode(provider.section.secretKey));
  }

  /** The attempt and when its token expires, if `token` is a state token of ours, unexpired and bound to `provider`; else null. */
  async verify(token: string, provider: OAuthProviderClient): Promise<(OAuthAttempt & { expiresAt: Date }) | null> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.encoder.encode(provider.section.secretKey), {
        algorithms: ['HS256'],
        typ: STATE_TYPE,
        currentDate: this.clock.now(),
        requiredClaims: ['iat', 'exp'],
        maxTokenAge: provider.section.stateTtlSeconds,
      }));
    } catch {
      return null;
    }
    const { prv, sta, cv, nce, rdr, lnk, rau, rat, exp } = payload;
    if (prv !== provider.name || typeof sta !== 'string' || typeof rdr !== 'string' || typeof exp !== 'number') return null;
    if ([cv, nce, lnk, rau].some((claim) => claim !== undefined && typeof claim !== 'string')) return null;
    // A re-authentication names its user and its time together, or neither; never with a link.
    if ((rau === undefined) !== (rat === undefined) || (rat !== undefined && typeof rat !== 'number') || (rau !== undefined && lnk !== undefined)) return null;
    return {
      provider: prv,
      state: sta,
      codeVerifier: cv as string | undefined,
      nonce: nce as string | undefined,
      redirect: rdr,
      linkUserId: lnk as string | undefined,
      ...(rau === undefined ? {} : { reauth: { userId: rau as string, requestedAt: rat as number } }),
      expiresAt: new Date(exp * 1000),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { jwtVerify } from 'jose';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import { type AccessTokenClaims, accessTokenClaimsOf } from './access-token-claims.js';
import { bearerTokenOf } from './bearer-token.js';
import { JWT_KEY } from './jwt-key.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { VerifiedAccessTokens } from './verified-access-tokens.js';
import type { webcrypto } from 'node:crypto';

/**
 * Verifies the bearer access token with jose, straight from the guard (no per-request strategy
 * object): signature with the key imported once, `alg`, `exp` and `nbf` against the injected
 * clock, then the library's own claims by `accessTokenClaimsOf`. A token it verified lately is
 * not verified again: its digest finds its claims, whose times are checked again (`VerifiedAccessTokens`).
 * It answers "which claims", never "which user": the user and the family are loaded by
 * `JwtCredentialResolver` in one query.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly algorithms: string[];
  private readonly verified = new VerifiedAccessTokens();

  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(JWT_KEY) private readonly key: webcrypto.CryptoKey,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    // RFC 8725 §3.1: only the configured algorithm; `none`, its other casings, other HMACs and every
    // asymmetric algorithm are refused before the signature is looked at. One fixed key, never
    // chosen by the token: `kid`, `jku`, `jwk` and `x5u` are ignored (RFC 8725 §3.10).
    this.algorithms = [jwt.algorithm];
  }

  /**
   * The claims of the request's valid bearer token, or null. Fails closed: whatever jose refuses
   * (a bad signature, a payload that is not a JSON object, an expired token) is a refusal, never a 500.
   * A token verified lately (or none at all) is answered at once, not as a promise: the request
   * then takes no turn of the microtask queue for it.
   */
  claimsOf(request: Request): Readonly<AccessTokenClaims> | null | Promise<Readonly<AccessTokenClaims> | null> {
    const token = bearerTokenOf(request);
    if (token === null) return null;
    const now = this.clock.now();
    const digest = VerifiedAccessTokens.digestOf(token);
    const known = this.verified.claimsAt(digest, now);
    if (known !== undefined) return known;
    return this.verify(token, digest, now);
  }

  private async verify(token: string, digest: string, now: Date): Promise<Readonly<AccessTokenClaims> | null> {
    let claims: AccessTokenClaims | null;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: this.algorithms, currentDate: now, requiredClaims: ['exp', 'iat'] });
      claims = accessTokenClaimsOf(payload, now);
    } catch {
      return null;
    }
    if (claims !== null) this.verified.remember(digest, claims);
    return claims;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { jwtVerify, type JWTVerifyOptions } from 'jose';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import { type AccessTokenClaims, accessTokenClaimsOf } from './access-token-claims.js';
import { bearerTokenOf } from './bearer-token.js';
import { JWT_KEY_RING, type JwtKeyRing } from './jwt-key-ring.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { VerifiedAccessTokens } from './verified-access-tokens.js';

/**
 * Verifies the bearer access token with jose, straight from the guard (no per-request strategy
 * object): signature with the key ring's key (imported once), `alg`, `exp` and `nbf` against the injected
 * clock, then the library's own claims by `accessTokenClaimsOf`. A token it verified lately is
 * not verified again: its digest finds its claims, whose times are checked again (`VerifiedAccessTokens`).
 * It answers "which claims", never "which user": the user and the family are loaded by
 * `JwtCredentialResolver` in one query.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly options: JWTVerifyOptions;
  private readonly verified = new VerifiedAccessTokens();

  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(JWT_KEY_RING) private readonly keys: JwtKeyRing,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    // RFC 8725 §3.1: only the configured algorithm; `none`, its other casings, other HMACs and every
    // other algorithm are refused before the signature is looked at. The key is the ring's: the one
    // HMAC key, or the configured key the `kid` names; `jku`, `jwk` and `x5u` are ignored (RFC 8725 §3.10).
    // With `jwt.signing`, `iss` and `aud` must be this service's (RFC 8725 §3.8, §3.9).
    this.options = {
      algorithms: [keys.algorithm],
      requiredClaims: ['exp', 'iat'],
      ...(jwt.signing ? { issuer: jwt.signing.issuer, audience: jwt.signing.audience } : {}),
    };
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
      const { payload } = await jwtVerify(token, this.keys.verificationKey, { ...this.options, currentDate: now });
      claims = accessTokenClaimsOf(payload, now);
    } catch {
      return null;
    }
    if (claims !== null) this.verified.remember(digest, claims);
    return claims;
  }
}

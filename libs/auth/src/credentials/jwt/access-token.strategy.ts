import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request, Response } from 'express';
import passport from 'passport';
import { Strategy } from 'passport-jwt';
import { AUTH_CLOCK } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import { type AccessTokenClaims, accessTokenClaimsOf } from './access-token-claims.js';
import { bearerTokenOf } from './bearer-token.js';
import { verificationKey } from './jwt-key.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';

const STRATEGY_NAME = 'svc-jwt';
const OWN_PASSPORT = Symbol('svc:passport');

/**
 * Verifies the bearer access token with passport-jwt: signature, `alg`, `exp` and `nbf` by
 * jsonwebtoken, the other claims by `accessTokenClaimsOf`, all against the injected clock. It answers "which claims", never "which user":
 * the user and the family are loaded by `JwtCredentialResolver` in one query.
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, STRATEGY_NAME) {
  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    super({
      jwtFromRequest: bearerTokenOf,
      // One fixed key, never chosen by the token: `kid`, `jku`, `jwk` and `x5u` are ignored (RFC 8725 §3.10).
      secretOrKey: verificationKey(jwt.secretKey),
      // RFC 8725 §3.1: only the configured algorithm; `none`, its other casings, other HMACs and
      // every asymmetric algorithm are refused before the signature is looked at.
      algorithms: [jwt.algorithm],
    });
    // jsonwebtoken compares `exp` and `nbf` with `clockTimestamp` when given one. passport-jwt hands
    // the same options object to every verification, so reading the injected clock here makes
    // every check use it.
    Object.defineProperty((this as unknown as { _verifOpts: object })._verifOpts, 'clockTimestamp', {
      get: () => Math.floor(this.clock.now().getTime() / 1000),
      enumerable: true,
    });
  }

  /** Called by passport-jwt once the signature is valid; `false` fails the authentication. */
  validate(payload: unknown): AccessTokenClaims | false {
    return accessTokenClaimsOf(payload, this.clock.now()) ?? false;
  }

  /**
   * The claims of the request's valid bearer token, or null. Fails closed: whatever goes wrong
   * while verifying (jsonwebtoken throws, rather than reports, on a signed `null` payload) is a
   * refusal, never a 500.
   */
  claimsOf(request: Request, response: Response): Promise<AccessTokenClaims | null> {
    return new Promise((resolve) => {
      const authenticate = this.getPassportInstance().authenticate(STRATEGY_NAME, { session: false }, (error: unknown, claims: unknown) =>
        resolve(error || !claims ? null : (claims as AccessTokenClaims)),
      );
      try {
        authenticate(request, response, () => resolve(null));
      } catch {
        resolve(null);
      }
    });
  }

  /**
   * A passport of this instance's own: the default one is a process-wide singleton, where two
   * applications (or two test apps) would replace each other's strategy of the same name.
   */
  getPassportInstance(): passport.Authenticator {
    const self = this as unknown as Record<symbol, passport.Authenticator | undefined>;
    return (self[OWN_PASSPORT] ??= new passport.Passport());
  }
}

import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify, type JWTVerifyOptions } from 'jose';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { SVC_JWT_SETTINGS } from './svc-jwt.constants.js';
import type { SvcJwtSettings, SvcJwtUser } from './svc-jwt.options.js';
import { VerifiedTokens } from './verified-tokens.js';

/** The name `AuthGuard` takes: `@UseGuards(AuthGuard('svc-jwt'))`. */
export const SVC_JWT_STRATEGY = 'svc-jwt';

/** Key-set failures that say nothing of the token: svc's `/jwks` is unreachable or answers garbage. */
const UNAVAILABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

/**
 * The Passport strategy `svc-jwt`: passport-jwt's strategy reading the bearer token (RFC 6750 §2.1),
 * verified with jose against svc's key set, fetched once and cached (`createRemoteJWKSet`: refetched
 * after `jwksCacheSeconds`, or for an unknown `kid` at most once per `jwksCooldownSeconds`).
 * passport-jwt's own verifier (jsonwebtoken) knows no EdDSA, so jose verifies instead
 * (docs/decisions/0031-signing-keys.md). Checked: the signature by the key the `kid` names, `alg`
 * among the asymmetric algorithms allowed (RFC 8725 §3.1: never `none` or HMAC), `iss`, `aud`,
 * `exp`, `nbf` and `iat` (RFC 8725 §3.8, §3.9), and `typ: access` (RFC 8725 §3.12).
 * A token verified once is remembered by its digest (`VerifiedTokens`) until its `exp`, and at most
 * as long as the key set is cached. A token is accepted until it expires: revocation at svc reaches
 * this service at the token's `exp`.
 */
@Injectable()
export class SvcJwtStrategy extends PassportStrategy(JwtStrategy, SVC_JWT_STRATEGY) {
  private readonly keySet: ReturnType<typeof createRemoteJWKSet>;
  private readonly verifyOptions: Omit<JWTVerifyOptions, 'currentDate'>;
  private readonly clock: SvcJwtSettings['clock'];
  private readonly tokenOf = ExtractJwt.fromAuthHeaderAsBearerToken();
  private readonly verified: VerifiedTokens;

  constructor(@Inject(SVC_JWT_SETTINGS) settings: SvcJwtSettings) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // Never called: `authenticate` verifies with jose. Fails closed if it ever were.
      secretOrKeyProvider: (_request: unknown, _token: unknown, done: (error: Error) => void) => done(new Error('svc/passport verifies with jose')),
      issuer: settings.issuer,
      audience: settings.audience,
      algorithms: [...settings.algorithms] as never,
    });
    this.keySet = createRemoteJWKSet(settings.jwksUrl, { cacheMaxAge: settings.jwksCacheMs, cooldownDuration: settings.jwksCooldownMs });
    this.verifyOptions = { issuer: settings.issuer, audience: settings.audience, algorithms: [...settings.algorithms], requiredClaims: ['exp', 'iat', 'sub'] };
    this.clock = settings.clock;
    this.verified = new VerifiedTokens(settings.jwksCacheMs);
  }

  /** Passport's entry: success with `request.user`, a 401 challenge, or 503 when the key set cannot be had. */
  override authenticate(request: Request): void {
    const token = this.tokenOf(request);
    // RFC 6750 §3: the challenge names the scheme.
    if (!token) return this.fail('Bearer', 401);
    const now = this.clock.now();
    const digest = VerifiedTokens.digestOf(token);
    const known = this.verified.userAt(digest, now.getTime());
    if (known) return this.success(known);
    jwtVerify(token, this.keySet, { ...this.verifyOptions, currentDate: now }).then(
      ({ payload }) => {
        const user = this.validate(payload);
        if (!user) return this.fail('Bearer error="invalid_token"', 401);
        this.verified.remember(digest, user, payload.exp!, now.getTime());
        this.success(user);
      },
      (error: unknown) => {
        if (isUnavailable(error)) this.error(new ServiceUnavailableException('The token issuer\'s keys are unavailable', { cause: error }));
        else this.fail('Bearer error="invalid_token"', 401);
      },
    );
  }

  /** The user of a verified payload, or null for a token that is not an svc access token. Override to add fields. */
  validate(payload: JWTPayload): SvcJwtUser | null {
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || payload.sub.length === 0) return null;
    const roles = stringsOf(payload.roles);
    const permissions = stringsOf(payload.permissions);
    if (roles === null || permissions === null) return null;
    const user: SvcJwtUser = { id: payload.sub, roles, permissions };
    if (typeof payload.scope === 'string') user.scopes = payload.scope.split(' ').filter((scope) => scope.length > 0);
    return user;
  }
}

/** An absent claim is [], a list of strings is itself; anything else fails the token (fails closed). */
function stringsOf(value: unknown): string[] | null {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : null;
}

/** jose says what is wrong with a token with a JOSEError; anything else (fetch's "fetch failed": refused, DNS) is the key set's. Either way the token is refused. */
function isUnavailable(error: unknown): boolean {
  if (error instanceof errors.JOSEError) return UNAVAILABLE.has(error.code);
  return true;
}

import { Inject, Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import type { AccessTokenClaims } from './access-token-claims.js';
import { JWT_KEY } from './jwt-key.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { randomUUID, type webcrypto } from 'node:crypto';

export interface IssuedAccessToken {
  token: string;
  /** Seconds until `exp`. */
  expiresIn: number;
}

/**
 * Mints access tokens with jose: a JWS (RFC 7515 compact form) signed with `jwt.secretKey` (the
 * key imported once, `JWT_KEY`) and the configured HMAC algorithm, carrying the claims docs/decisions/0012-access-tokens-jwt.md lists (`sub`, `sid`, `jti`, `typ`,
 * `iat`, `exp`), all times from the injected clock.
 */
@Injectable()
export class AccessTokenService {
  private readonly algorithm: JwtSettings['algorithm'];
  private readonly lifetimeSeconds: number;

  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(JWT_KEY) private readonly key: webcrypto.CryptoKey,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    this.algorithm = jwt.algorithm;
    this.lifetimeSeconds = jwt.accessTokenExpireMinutes * 60;
  }

  /**
   * `actorId`: the administrator acting as the user, carried as the `act` claim (RFC 8693 §4.1).
   * `organizationId`: the family's active organization, carried as the private `org` claim (RFC 7519 §4.3).
   */
  async sign(userId: string, familyId: string, actorId?: string, organizationId?: string): Promise<IssuedAccessToken> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: AccessTokenClaims = {
      sub: userId,
      sid: familyId,
      jti: randomUUID(),
      typ: 'access',
      iat,
      exp: iat + this.lifetimeSeconds,
      ...(actorId ? { act: { sub: actorId } } : {}),
      ...(organizationId ? { org: organizationId } : {}),
    };
    const token = await new SignJWT({ ...claims }).setProtectedHeader({ alg: this.algorithm, typ: 'JWT' }).sign(this.key);
    return { token, expiresIn: this.lifetimeSeconds };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { createHmac, type KeyObject, randomUUID } from 'node:crypto';
import { AUTH_CLOCK } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import type { AccessTokenClaims } from './access-token-claims.js';
import { jwtSigningKey } from './jwt-key.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';

const HASH_OF = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

export interface IssuedAccessToken {
  token: string;
  /** Seconds until `exp`. */
  expiresIn: number;
}

/**
 * Mints access tokens: a JWS (RFC 7515 compact form) signed with `jwt.secretKey` and the
 * configured HMAC algorithm, carrying the claims of contract §3.
 */
@Injectable()
export class AccessTokenService {
  private readonly key: KeyObject;
  private readonly header: string;
  private readonly hash: (typeof HASH_OF)[keyof typeof HASH_OF];
  private readonly lifetimeSeconds: number;

  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    this.key = jwtSigningKey(jwt.secretKey);
    this.hash = HASH_OF[jwt.algorithm];
    this.header = base64url({ alg: jwt.algorithm, typ: 'JWT' });
    this.lifetimeSeconds = jwt.accessTokenExpireMinutes * 60;
  }

  sign(userId: string, familyId: string): IssuedAccessToken {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: AccessTokenClaims = { sub: userId, sid: familyId, jti: randomUUID(), typ: 'access', iat, exp: iat + this.lifetimeSeconds };
    const signingInput = `${this.header}.${base64url(claims)}`;
    const signature = createHmac(this.hash, this.key).update(signingInput).digest('base64url');
    return { token: `${signingInput}.${signature}`, expiresIn: this.lifetimeSeconds };
  }
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

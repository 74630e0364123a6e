import { Inject, Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import type { AccessTokenClaims } from './access-token-claims.js';
import { JWT_KEY_RING, type JwtKeyRing } from './jwt-key-ring.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';
import { randomUUID } from 'node:crypto';

export interface IssuedAccessToken {
  token: string;
  /** Seconds until `exp`. */
  expiresIn: number;
}

/** What another service reads of the user in a signed token (docs/guides/machine-access.md): with `jwt.signing` and `authorization` only. */
export interface AccessTokenGrants {
  roles: readonly string[];
  permissions: readonly string[];
}

/** What an access token may carry beside its subject, family and sign-in time. */
export interface AccessTokenExtras {
  /** The administrator acting as the user (`act`). */
  actorId?: string;
  /** The family's active organization (`org`). */
  organizationId?: string;
  /** With `jwt.signing` and `authorization`: the user's roles and permissions, for other services. */
  grants?: AccessTokenGrants;
}

/**
 * Mints access tokens with jose: a JWS (RFC 7515 compact form) signed with the key ring's signing
 * key (imported once), carrying the claims docs/decisions/0012-access-tokens-jwt.md lists (`sub`,
 * `sid`, `jti`, `typ`, `iat`, `exp`), all times from the injected clock. With `jwt.signing` they also
 * carry `iss` and `aud` (RFC 7519 §4.1.1, §4.1.3), the signing key's `kid` header, and the user's
 * `roles` and `permissions` when given (docs/decisions/0031-signing-keys.md).
 */
@Injectable()
export class AccessTokenService {
  private readonly lifetimeSeconds: number;
  private readonly header: { alg: string; typ: 'JWT'; kid?: string };
  private readonly audience: { iss: string; aud: string } | undefined;

  constructor(
    @Inject(JWT_SETTINGS) jwt: JwtSettings,
    @Inject(JWT_KEY_RING) private readonly keys: JwtKeyRing,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    this.lifetimeSeconds = jwt.accessTokenExpireMinutes * 60;
    this.header = keys.signingKid === undefined ? { alg: keys.algorithm, typ: 'JWT' } : { alg: keys.algorithm, kid: keys.signingKid, typ: 'JWT' };
    this.audience = jwt.signing && { iss: jwt.signing.issuer, aud: jwt.signing.audience };
  }

  /** Whether tokens name their issuer and audience, so that other services can accept them: `jwt.signing` is configured. */
  get signsForOtherServices(): boolean {
    return this.audience !== undefined;
  }

  /**
   * `authTime`: the family's last real sign-in, carried as `auth_time` (epoch seconds; OIDC Core §2).
   * `actorId`: the administrator acting as the user, carried as the `act` claim (RFC 8693 §4.1).
   * `organizationId`: the family's active organization, carried as the private `org` claim (RFC 7519 §4.3).
   */
  async sign(userId: string, familyId: string, authTime: Date | null, extras: AccessTokenExtras = {}): Promise<IssuedAccessToken> {
    const { actorId, organizationId, grants } = extras;
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: AccessTokenClaims = {
      ...this.audience,
      sub: userId,
      sid: familyId,
      jti: randomUUID(),
      typ: 'access',
      iat,
      exp: iat + this.lifetimeSeconds,
      ...(authTime ? { auth_time: Math.min(iat, Math.floor(authTime.getTime() / 1000)) } : {}),
      ...(actorId ? { act: { sub: actorId } } : {}),
      ...(organizationId ? { org: organizationId } : {}),
      ...(grants ? { roles: [...grants.roles], permissions: [...grants.permissions] } : {}),
    };
    const token = await new SignJWT({ ...claims }).setProtectedHeader(this.header).sign(this.keys.signingKey);
    return { token, expiresIn: this.lifetimeSeconds };
  }
}

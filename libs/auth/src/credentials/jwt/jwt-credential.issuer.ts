import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { permissionsOfRoles } from '../../config/authorization-policy.js';
import type { SvcUser } from '../../entities/user.entity.js';
import { UserStore } from '../../users/user-store.js';
import { rolesOf } from '../../users/user-roles.js';
import type { CredentialIssuer, Impersonation } from '../credential-issuer.js';
import { type AccessTokenGrants, AccessTokenService, type IssuedAccessToken } from './access-token.service.js';
import { RefreshCookie } from './refresh-cookie.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { type IssuedRefreshToken, RefreshTokenStore } from './refresh-token-store.js';

/** What login, signup and refresh hand out: a refresh token (the cookie) and an access token (the body). */
export interface JwtCredential {
  refresh: IssuedRefreshToken;
  access: IssuedAccessToken;
}

/** The token body (docs/guides/jwt.md). */
export interface TokenBody {
  access_token: string;
  token_type: 'bearer';
  /** Seconds until the access token expires. */
  expires_in: number;
}

/**
 * Issues jwt credentials inside the caller's transaction: a new refresh family and the access
 * token that goes with it. After an OAuth redirect only the refresh cookie is set (an access token
 * never travels in a URL); the client calls POST /refresh for its access token.
 */
@Injectable()
export class JwtCredentialIssuer implements CredentialIssuer<JwtCredential> {
  readonly issuedAtSignup = true;

  constructor(
    private readonly refreshTokens: RefreshTokenStore,
    private readonly families: RefreshFamilyStore,
    private readonly accessTokens: AccessTokenService,
    private readonly cookie: RefreshCookie,
    private readonly users: UserStore,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * A new family, with the device that started it (docs/guides/devices.md). The family of the refresh
   * cookie the request presented, if any, is revoked: a browser holds one refresh cookie, and the
   * login replaces it (no credential outlives its replacement). An impersonation keeps it: it is the
   * administrator's own; its family and access tokens carry the administrator's id.
   */
  async issue(manager: EntityManager, user: SvcUser, request: Request, impersonation?: Impersonation): Promise<JwtCredential> {
    const presentedToken = impersonation ? undefined : this.cookie.read(request);
    if (presentedToken) {
      const presented = await this.refreshTokens.findByToken(manager, presentedToken);
      if (presented) await this.refreshTokens.revokeFamily(manager, presented.familyId);
    }
    return this.issueFamily(manager, user, request, impersonation);
  }

  /**
   * A new family and its first pair, leaving every other credential as it is: what a native client
   * is issued (docs/guides/machine-access.md), which presents no refresh cookie of its own.
   */
  async issueFamily(manager: EntityManager, user: SvcUser, request: Request, impersonation?: Impersonation): Promise<JwtCredential> {
    const { id: familyId, authTime } = await this.families.start(manager, user.id, request, impersonation);
    return this.withAccessToken(manager, user, await this.refreshTokens.issue(manager, user.id, familyId), authTime, impersonation?.actorId);
  }

  deliverAsJson(response: Response, credential: JwtCredential): TokenBody {
    this.cookie.set(response, credential.refresh.token);
    return { access_token: credential.access.token, token_type: 'bearer', expires_in: credential.access.expiresIn };
  }

  deliverAsRedirect(response: Response, credential: JwtCredential, location: string): void {
    this.cookie.set(response, credential.refresh.token);
    response.redirect(302, location);
  }

  clearCookie(response: Response): void {
    this.cookie.clear(response);
  }

  /**
   * Signs the access token that goes with `refresh` (its `sid` is the refresh family; `authTime`, the
   * family's last sign-in; `actorId`, its administrator; `organizationId`, its active organization,
   * the `org` claim), read in the caller's transaction.
   */
  async withAccessToken(manager: EntityManager, user: SvcUser, refresh: IssuedRefreshToken, authTime: Date | null, actorId?: string | null, organizationId?: string): Promise<JwtCredential> {
    const grants = await this.grantsOf(manager, user);
    return { refresh, access: await this.accessTokens.sign(user.id, refresh.familyId, authTime, { actorId: actorId ?? undefined, organizationId, grants }) };
  }

  /**
   * With `jwt.signing` and `authorization`, the user's roles and their permissions as of now, for
   * other services that have no database of theirs (docs/decisions/0031-signing-keys.md); they hold
   * until the token expires.
   */
  private async grantsOf(manager: EntityManager, user: SvcUser): Promise<AccessTokenGrants | undefined> {
    const policy = this.config.authorization;
    if (!policy || !this.accessTokens.signsForOtherServices) return undefined;
    const roles = rolesOf(user) ?? rolesOf(await this.users.loadRoles(manager, user)) ?? [];
    return { roles, permissions: permissionsOfRoles(policy, roles) };
  }
}

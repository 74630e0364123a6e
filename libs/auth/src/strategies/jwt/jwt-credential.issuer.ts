import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SvcUser } from '../../entities/user.entity.js';
import type { IssueCredential } from '../../password/password-flows.service.js';
import { AccessTokenService, type IssuedAccessToken } from './access-token.service.js';
import { type IssuedRefreshToken, RefreshTokenStore } from './refresh-token-store.js';

/** What login, signup and refresh hand out: a refresh token (the cookie) and an access token (the body). */
export interface JwtCredential {
  refresh: IssuedRefreshToken;
  access: IssuedAccessToken;
}

/** The token body of contract §2. */
export interface TokenBody {
  access_token: string;
  token_type: 'bearer';
  /** Seconds until the access token expires. */
  expires_in: number;
}

export function tokenBodyOf(credential: JwtCredential): TokenBody {
  return { access_token: credential.access.token, token_type: 'bearer', expires_in: credential.access.expiresIn };
}

/** Issues jwt credentials inside the caller's transaction. */
@Injectable()
export class JwtCredentialIssuer {
  constructor(
    private readonly refreshTokens: RefreshTokenStore,
    private readonly accessTokens: AccessTokenService,
  ) {}

  /**
   * For signup and login: a new family. The family of the refresh cookie the request presented, if
   * any, is revoked: a browser holds one refresh cookie, and the login replaces it (as the session
   * strategy deletes the presented session: no credential outlives its replacement).
   */
  forLogin(presentedRefreshToken: string | undefined): IssueCredential<JwtCredential> {
    return async (manager: EntityManager, user: SvcUser) => {
      if (presentedRefreshToken) {
        const presented = await this.refreshTokens.findByToken(manager, presentedRefreshToken);
        if (presented) await this.refreshTokens.revokeFamily(manager, presented.familyId);
      }
      return this.withAccessToken(user, await this.refreshTokens.issue(manager, user.id));
    };
  }

  /** Signs the access token that goes with `refresh` (its `sid` is the refresh family). */
  withAccessToken(user: SvcUser, refresh: IssuedRefreshToken): JwtCredential {
    return { refresh, access: this.accessTokens.sign(user.id, refresh.familyId) };
  }
}

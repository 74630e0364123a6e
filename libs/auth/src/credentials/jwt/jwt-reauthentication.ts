import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuthError } from '../../errors/auth.error.js';
import type { CredentialReauthentication } from '../credential-reauthentication.js';
import type { Principal } from '../credential-resolver.js';
import { AccessTokenService, type IssuedAccessToken } from './access-token.service.js';
import type { TokenBody } from './jwt-credential.issuer.js';
import { RefreshFamilyStore } from './refresh-family-store.js';

/**
 * A re-authentication moves the refresh family's `auth_time` (the next refresh carries it) and
 * answers with a new access token whose `auth_time` is now (OIDC Core §2); the refresh cookie stays.
 */
@Injectable()
export class JwtReauthentication implements CredentialReauthentication<IssuedAccessToken> {
  constructor(
    private readonly families: RefreshFamilyStore,
    private readonly accessTokens: AccessTokenService,
  ) {}

  async renew(manager: EntityManager, principal: Principal): Promise<IssuedAccessToken> {
    if (principal.familyId === undefined) throw new AuthError('UNAUTHENTICATED');
    const authTime = await this.families.reauthenticated(manager, principal.familyId);
    // The family's active organization stays on the new token (docs/guides/organizations.md).
    return this.accessTokens.sign(principal.user.id, principal.familyId, authTime, { actorId: principal.impersonatedBy, organizationId: principal.body.organization?.id });
  }

  deliver(_response: unknown, access: IssuedAccessToken): TokenBody {
    return { access_token: access.token, token_type: 'bearer', expires_in: access.expiresIn };
  }
}

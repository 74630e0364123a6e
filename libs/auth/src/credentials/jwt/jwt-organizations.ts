import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ActivatedToken, CredentialOrganizations } from '../credential-organizations.js';
import type { Principal } from '../credential-resolver.js';
import { AccessTokenService } from './access-token.service.js';
import { RefreshFamilyStore } from './refresh-family-store.js';

/**
 * The refresh family acts in the organization from now on (`refresh_families.active_organization_id`),
 * and a new access token says so in its `org` claim; each refresh of the family signs it again while
 * the user is a member (docs/guides/organizations.md).
 */
@Injectable()
export class JwtOrganizations implements CredentialOrganizations {
  constructor(
    private readonly families: RefreshFamilyStore,
    private readonly accessTokens: AccessTokenService,
  ) {}

  async activate(manager: EntityManager, principal: Principal, organizationId: string): Promise<ActivatedToken> {
    await this.families.setActiveOrganization(manager, principal.familyId!, organizationId);
    // The sign-in time stays the family's (docs/decisions/0028-fresh-sign-in.md): an activation is no sign-in.
    const access = await this.accessTokens.sign(principal.user.id, principal.familyId!, principal.authTime, { actorId: principal.impersonatedBy, organizationId });
    return { access_token: access.token, token_type: 'bearer', expires_in: access.expiresIn };
  }
}

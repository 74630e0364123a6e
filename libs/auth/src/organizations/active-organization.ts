import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { AccessTokenService } from '../credentials/jwt/access-token.service.js';
import { RefreshFamilyStore } from '../credentials/jwt/refresh-family-store.js';
import { SessionStore } from '../credentials/session/session-store.js';

/** The jwt credential's answer to an activation: a new access token carrying the `org` claim. */
export interface ActivatedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/**
 * Records the organization a credential acts in (docs/guides/organizations.md): on its session row,
 * or on its refresh family, so that every later request and refresh of that credential acts there.
 * The other credentials of the user keep theirs. The credential's cached principal goes.
 */
@Injectable()
export class ActiveOrganization {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Optional() private readonly sessions?: SessionStore,
    @Optional() private readonly families?: RefreshFamilyStore,
    @Optional() private readonly accessTokens?: AccessTokenService,
  ) {}

  /** Session: nothing to answer (204). jwt: the new access token, `org` its organization (200). */
  async activate(manager: EntityManager, principal: Principal, organizationId: string): Promise<ActivatedToken | null> {
    if (this.config.credential === 'session') {
      await this.sessions!.setActiveOrganization(manager, { id: principal.sessionId!, userId: principal.user.id }, organizationId);
      return null;
    }
    await this.families!.setActiveOrganization(manager, principal.familyId!, organizationId);
    const access = await this.accessTokens!.sign(principal.user.id, principal.familyId!, principal.impersonatedBy, organizationId);
    return { access_token: access.token, token_type: 'bearer', expires_in: access.expiresIn };
  }
}

import type { EntityManager } from 'typeorm';
import type { ActivatedToken, CredentialOrganizations } from '../credential-organizations.js';
import type { Principal } from '../credential-resolver.js';

/**
 * The session module's organizations with native clients on (docs/guides/organizations.md): a
 * principal resolved from a native bearer token records the organization on its refresh family and
 * is answered with a new access token carrying `org`, as under the jwt credential; any other, on its
 * session row (204).
 */
export class NativeAwareOrganizations implements CredentialOrganizations {
  constructor(
    private readonly browser: CredentialOrganizations,
    private readonly native: CredentialOrganizations,
  ) {}

  activate(manager: EntityManager, principal: Principal, organizationId: string): Promise<ActivatedToken | null> {
    return (principal.familyId !== undefined ? this.native : this.browser).activate(manager, principal, organizationId);
  }
}

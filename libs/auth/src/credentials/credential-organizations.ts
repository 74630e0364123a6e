import type { EntityManager } from 'typeorm';
import type { Principal } from './credential-resolver.js';

/** The jwt credential's answer to an activation: a new access token carrying the `org` claim. */
export interface ActivatedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/**
 * The credential's half of organizations (docs/guides/organizations.md): records the organization a
 * credential acts in, on its session row or its refresh family, so that every later request (and
 * refresh) of that credential acts there while its user is a member. The user's other credentials
 * keep theirs. The credential's cached principal goes.
 */
export interface CredentialOrganizations {
  /** Session: nothing to answer (null, 204). jwt: a new access token whose `org` is the organization (200). */
  activate(manager: EntityManager, principal: Principal, organizationId: string): Promise<ActivatedToken | null>;
}

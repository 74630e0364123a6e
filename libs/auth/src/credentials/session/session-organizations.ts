import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ActivatedToken, CredentialOrganizations } from '../credential-organizations.js';
import type { Principal } from '../credential-resolver.js';
import { SessionStore } from './session-store.js';

/** The session acts in the organization from now on: `sessions.active_organization_id` (docs/guides/organizations.md). */
@Injectable()
export class SessionOrganizations implements CredentialOrganizations {
  constructor(private readonly sessions: SessionStore) {}

  async activate(manager: EntityManager, principal: Principal, organizationId: string): Promise<ActivatedToken | null> {
    await this.sessions.setActiveOrganization(manager, { id: principal.sessionId!, userId: principal.user.id }, organizationId);
    return null;
  }
}

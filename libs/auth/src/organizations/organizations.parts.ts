import type { Provider, Type } from '@nestjs/common';
import { InvitationLimit } from './invitation-limit.js';
import { InvitationStore } from './invitation-store.js';
import { OrgPolicyNamesCheck } from './org-policy-names.check.js';
import { OrganizationStore } from './organization-store.js';
import { OrganizationsController } from './organizations.controller.js';
import { Organizations } from './organizations.service.js';

/** The `organizations` section's routes under `<prefix>/organizations` and their services (docs/guides/organizations.md); mounted only with it. */
export const organizationParts: { controllers: Type[]; providers: Provider[] } = {
  controllers: [OrganizationsController],
  providers: [Organizations, OrganizationStore, InvitationStore, InvitationLimit],
};

/** Always in the graph: the startup check of the names `@OrgRoles` / `@OrgPermissions` use, with or without the section. */
export const organizationCheckProviders: Provider[] = [OrgPolicyNamesCheck];

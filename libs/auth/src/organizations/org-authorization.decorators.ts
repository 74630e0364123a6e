import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { REQUIRED_ORG_PERMISSIONS, REQUIRED_ORG_ROLES } from './org-authorization.constants.js';
import { OrgAuthorizationGuard } from './org-authorization.guard.js';

/**
 * The route (or every route of the controller) needs a signed-in user whose active organization
 * role is any of these (docs/guides/organizations.md): 401 `UNAUTHENTICATED` without a credential,
 * 403 `ORGANIZATION_REQUIRED` without an active organization, 403 `PERMISSION_DENIED` with another
 * role. A role the `organizations` policy does not define stops startup.
 */
export function OrgRoles(...roles: string[]): MethodDecorator & ClassDecorator {
  if (roles.length === 0) throw new TypeError('@OrgRoles() needs at least one role');
  return applyDecorators(SetMetadata(REQUIRED_ORG_ROLES, Object.freeze([...roles])), UseGuards(OrgAuthorizationGuard));
}

/**
 * The route (or every route of the controller) needs a signed-in user whose role in the active
 * organization grants all of these permissions (`projects:read` by `projects:read` or `projects:*`):
 * 401 `UNAUTHENTICATED`, 403 `ORGANIZATION_REQUIRED`, 403 `PERMISSION_DENIED` as `@OrgRoles`. A
 * permission no organization role grants stops startup.
 */
export function OrgPermissions(...permissions: string[]): MethodDecorator & ClassDecorator {
  if (permissions.length === 0) throw new TypeError('@OrgPermissions() needs at least one permission');
  return applyDecorators(SetMetadata(REQUIRED_ORG_PERMISSIONS, Object.freeze([...permissions])), UseGuards(OrgAuthorizationGuard));
}

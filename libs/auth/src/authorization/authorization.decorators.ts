import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { REQUIRED_PERMISSIONS, REQUIRED_ROLES } from './authorization.constants.js';
import { AuthorizationGuard } from './authorization.guard.js';

/**
 * The route (or every route of the controller) needs a signed-in user holding any of these roles:
 * 401 `UNAUTHENTICATED` without a credential, 403 `PERMISSION_DENIED` without the roles
 * (docs/guides/roles-and-permissions.md). A role the `authorization` policy does not define stops startup.
 */
export function Roles(...roles: string[]): MethodDecorator & ClassDecorator {
  if (roles.length === 0) throw new TypeError('@Roles() needs at least one role');
  return applyDecorators(SetMetadata(REQUIRED_ROLES, Object.freeze([...roles])), UseGuards(AuthorizationGuard));
}

/**
 * The route (or every route of the controller) needs a signed-in user whose roles grant all of
 * these permissions (`notes:delete` is granted by `notes:delete` or `notes:*`): 401
 * `UNAUTHENTICATED` without a credential, 403 `PERMISSION_DENIED` without them. A permission no role
 * of the policy grants stops startup.
 */
export function Permissions(...permissions: string[]): MethodDecorator & ClassDecorator {
  if (permissions.length === 0) throw new TypeError('@Permissions() needs at least one permission');
  return applyDecorators(SetMetadata(REQUIRED_PERMISSIONS, Object.freeze([...permissions])), UseGuards(AuthorizationGuard));
}

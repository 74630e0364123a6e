import type { AuthConfig } from './auth-config.js';

/** A policy of roles and their permissions: the users' (`authorization`) or the organizations' (`organizations`). */
type Policy = { readonly roles: NonNullable<AuthConfig['authorization']>['roles'] };

/** A role's name: never a comma or a space, so a list of roles reads back unambiguously. */
export const ROLE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** `<resource>:<action>`, or `<resource>:*` for every action of the resource. */
export const PERMISSION = /^[A-Za-z][A-Za-z0-9_.-]{0,63}:(?:\*|[A-Za-z][A-Za-z0-9_.-]{0,63})$/;

/** The union of the roles' permissions, sorted, as the policy writes them (`users:*` is not expanded); a role the policy no longer defines grants nothing. */
export function permissionsOfRoles(policy: Policy, roles: readonly string[]): string[] {
  const permissions = new Set<string>();
  for (const role of roles) for (const permission of Object.hasOwn(policy.roles, role) ? policy.roles[role] : []) permissions.add(permission);
  return [...permissions].sort();
}

/** Whether held permissions include `required`: the same string, or `<resource>:*` of its resource. */
export function grantsPermission(held: readonly string[], required: string): boolean {
  if (held.includes(required)) return true;
  const resource = required.slice(0, required.indexOf(':'));
  return held.includes(`${resource}:*`);
}

/**
 * What both lists grant, as permissions: the API key's effective permissions are its scopes within
 * its owner's current permissions (`notes:read` under `notes:*` is `notes:read`; `notes:*` over
 * `notes:read` is `notes:read`). Sorted, without duplicates.
 */
export function intersectPermissions(held: readonly string[], scopes: readonly string[]): string[] {
  const both = new Set<string>();
  for (const scope of scopes) {
    if (grantsPermission(held, scope)) both.add(scope);
    else if (scope.endsWith(':*')) for (const permission of held) if (permission.startsWith(scope.slice(0, -1))) both.add(permission);
  }
  return [...both].sort();
}

/** Some role of the policy grants the permission (itself, or its resource's `*`). */
export function isDefinedPermission(policy: Policy, permission: string): boolean {
  return Object.values(policy.roles).some((permissions) => grantsPermission(permissions, permission));
}

/** The roles whose permissions include `permission` (directly or through `<resource>:*`). */
export function rolesGranting(policy: Policy, permission: string): string[] {
  return Object.keys(policy.roles).filter((role) => grantsPermission(policy.roles[role], permission));
}

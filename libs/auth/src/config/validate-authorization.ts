import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { AuthorizationOptions } from './auth-options.js';
import { PERMISSION, ROLE_NAME } from './authorization-policy.js';

/** Most roles a policy may define, and most permissions a role may grant: a policy, not a database. */
const MAX_ROLES = 256;
const MAX_PERMISSIONS = 256;

/**
 * The `authorization` section (docs/guides/roles-and-permissions.md): every role a name, every permission
 * `<resource>:<action>` or `<resource>:*`, every default role defined. Absent: off. Whether the
 * application's `@Roles`/`@Permissions` name only what the policy defines is checked at startup,
 * once the controllers are known.
 */
export function validateAuthorization(section: AuthorizationOptions | undefined): AuthConfig['authorization'] {
  if (section === undefined) return undefined;
  if (!isRecord(section)) throw new AuthConfigError('authorization', 'must be an object', section);
  if (!isRecord(section.roles)) throw new AuthConfigError('authorization.roles', 'is required: an object of role names to their permissions', section.roles);
  const names = Object.keys(section.roles);
  if (names.length > MAX_ROLES) throw new AuthConfigError('authorization.roles', `must define at most ${MAX_ROLES} roles`, names.length);
  const roles: Record<string, readonly string[]> = {};
  for (const name of names) {
    if (!ROLE_NAME.test(name)) throw new AuthConfigError(`authorization.roles`, 'must name each role with a letter then up to 63 letters, digits, "_", "-" or "."', name);
    roles[name] = permissionsOf(`authorization.roles.${name}`, section.roles[name]);
  }
  const given = section.defaultRoles ?? [];
  if (!Array.isArray(given)) throw new AuthConfigError('authorization.defaultRoles', 'must be an array of role names', given);
  for (const [i, role] of given.entries()) {
    if (typeof role !== 'string' || !Object.hasOwn(roles, role)) {
      throw new AuthConfigError(`authorization.defaultRoles[${i}]`, 'names a role that authorization.roles does not define', role);
    }
  }
  if (section.assignRoles !== undefined && typeof section.assignRoles !== 'function') {
    throw new AuthConfigError('authorization.assignRoles', 'must be a function of the user to role names', section.assignRoles);
  }
  return { roles, defaultRoles: [...new Set(given as string[])].sort(), ...(section.assignRoles ? { assignRoles: section.assignRoles } : {}) };
}

/** A role's permissions, each `<resource>:<action>` or `<resource>:*`, deduplicated and sorted; `field` names the role in the error. */
export function permissionsOf(field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new AuthConfigError(field, 'must be an array of permissions (`<resource>:<action>` or `<resource>:*`)', value);
  if (value.length > MAX_PERMISSIONS) throw new AuthConfigError(field, `must grant at most ${MAX_PERMISSIONS} permissions`, value.length);
  for (const [i, permission] of value.entries()) {
    if (typeof permission !== 'string' || !PERMISSION.test(permission)) {
      throw new AuthConfigError(`${field}[${i}]`, 'must be a permission `<resource>:<action>` or `<resource>:*` (letters, digits, "_", "-", ".")', permission);
    }
  }
  return [...new Set(value as string[])].sort();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

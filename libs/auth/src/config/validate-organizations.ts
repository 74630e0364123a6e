import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { OrganizationsOptions } from './auth-options.js';
import { ROLE_NAME } from './authorization-policy.js';
import { bool, int } from './option-rules.js';
import { permissionsOf } from './validate-authorization.js';
import { pagePath } from './validate-email-verification.js';

/** Most organization roles a policy may define: a policy, not a database. */
const MAX_ROLES = 64;

/**
 * The `organizations` section (docs/guides/organizations.md): its roles are a policy of their own, of
 * the shape of `authorization` (every role a name, every permission `<resource>:<action>` or
 * `<resource>:*`), and `creatorRole` one of them. Absent: off, and nothing of organizations exists.
 * Whether `@OrgRoles`/`@OrgPermissions` name only what it defines is checked at startup.
 */
export function validateOrganizations(section: OrganizationsOptions | undefined): AuthConfig['organizations'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('organizations', 'must be an object', section);
  const given = section.roles as unknown;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new AuthConfigError('organizations.roles', 'is required: an object of organization role names to their permissions', given);
  }
  const names = Object.keys(given);
  if (names.length === 0) throw new AuthConfigError('organizations.roles', 'must define at least one role (the creatorRole)');
  if (names.length > MAX_ROLES) throw new AuthConfigError('organizations.roles', `must define at most ${MAX_ROLES} roles`, names.length);
  const roles: Record<string, readonly string[]> = {};
  for (const name of names) {
    if (!ROLE_NAME.test(name)) throw new AuthConfigError('organizations.roles', 'must name each role with a letter then up to 63 letters, digits, "_", "-" or "."', name);
    roles[name] = permissionsOf(`organizations.roles.${name}`, (given as Record<string, unknown>)[name]);
  }
  if (typeof section.creatorRole !== 'string' || !Object.hasOwn(roles, section.creatorRole)) {
    throw new AuthConfigError('organizations.creatorRole', 'is required and must name a role that organizations.roles defines', section.creatorRole);
  }
  return {
    roles,
    creatorRole: section.creatorRole,
    invitationTtlHours: int('organizations.invitationTtlHours', section.invitationTtlHours, 72, 1, 720),
    invitationPath: pagePath('organizations.invitationPath', section.invitationPath, '/accept-invitation'),
    sendsInvitationMail: bool('organizations.sendsInvitationMail', section.sendsInvitationMail, true),
  };
}

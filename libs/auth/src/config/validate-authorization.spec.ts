import { describe, expect, it } from '@jest/globals';
import { AuthConfigError } from './auth-config.error.js';
import type { AuthorizationOptions } from './auth-options.js';
import { grantsPermission, isDefinedPermission, permissionsOfRoles, rolesGranting } from './authorization-policy.js';
import { validateAuthorization } from './validate-authorization.js';

const POLICY = validateAuthorization({ roles: { admin: ['users:*', 'audit:read', 'audit:read'], editor: ['notes:write', 'notes:read'], member: [] }, defaultRoles: ['member', 'member'] })!;

describe('validateAuthorization', () => {
  it('is off without the section; with it, each role its permissions sorted and unique, and the default roles', () => {
    expect(validateAuthorization(undefined)).toBeUndefined();
    expect(POLICY).toEqual({ roles: { admin: ['audit:read', 'users:*'], editor: ['notes:read', 'notes:write'], member: [] }, defaultRoles: ['member'] });
  });

  it.each<[unknown, string]>([
    [null, 'authorization must be an object (got null)'],
    [{}, 'authorization.roles is required: an object of role names to their permissions'],
    [{ roles: { editor: 'notes:read' } }, 'authorization.roles.editor must be an array of permissions'],
    [{ roles: { editor: ['notes'] } }, 'authorization.roles.editor[0] must be a permission'],
    [{ roles: { editor: ['*:*'] } }, 'authorization.roles.editor[0] must be a permission'],
    [{ roles: { editor: ['notes:read:all'] } }, 'authorization.roles.editor[0] must be a permission'],
    [{ roles: { 'two words': [] } }, 'authorization.roles must name each role'],
    [{ roles: { editor: [] }, defaultRoles: ['admin'] }, 'authorization.defaultRoles[0] names a role that authorization.roles does not define (got "admin")'],
    [{ roles: { editor: [] }, defaultRoles: 'editor' }, 'authorization.defaultRoles must be an array'],
  ])('refuses %p', (section, message) => {
    expect(() => validateAuthorization(section as AuthorizationOptions)).toThrow(AuthConfigError);
    expect(() => validateAuthorization(section as AuthorizationOptions)).toThrow(message);
  });
});

describe('the policy', () => {
  it('gives the union of the roles’ permissions, sorted, as written; a role it no longer defines grants nothing', () => {
    expect(permissionsOfRoles(POLICY, ['editor', 'admin', 'gone'])).toEqual(['audit:read', 'notes:read', 'notes:write', 'users:*']);
  });

  it('grants a permission held as it is or through its resource’s *', () => {
    expect(grantsPermission(['users:*'], 'users:delete')).toBe(true);
    expect(grantsPermission(['notes:read'], 'notes:read')).toBe(true);
    expect(grantsPermission(['notes:read'], 'notes:write')).toBe(false);
    expect(grantsPermission(['notes:*'], 'users:read')).toBe(false);
    expect(grantsPermission(['notesx:*'], 'notes:read')).toBe(false);
  });

  it('knows the permissions some role grants, and the roles that grant one', () => {
    expect(isDefinedPermission(POLICY, 'users:roles')).toBe(true);
    expect(isDefinedPermission(POLICY, 'notes:delete')).toBe(false);
    expect(rolesGranting(POLICY, 'users:roles')).toEqual(['admin']);
  });
});

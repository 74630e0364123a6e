import { describe, expect, it } from '@jest/globals';
import { grantsPermission, intersectPermissions } from './authorization-policy.js';

// An API key's permissions: its scopes within its owner's (docs/decisions/0032-api-keys.md).
describe('intersectPermissions', () => {
  it.each([
    [['notes:*'], ['notes:read'], ['notes:read']],
    [['notes:read'], ['notes:*'], ['notes:read']],
    [['notes:read', 'notes:write'], ['notes:*'], ['notes:read', 'notes:write']],
    [['notes:*'], ['notes:*'], ['notes:*']],
    [['notes:*', 'users:read'], ['users:*', 'notes:delete'], ['notes:delete', 'users:read']],
    [['notes:read'], ['notes:write'], []],
    [['notesx:read'], ['notes:*'], []],
    [[], ['notes:read'], []],
    [['notes:*'], [], []],
  ])('owner %j, scopes %j: %j', (held, scopes, expected) => {
    expect(intersectPermissions(held, scopes)).toEqual(expected);
  });

  it('grants nothing the owner does not hold, and everything both hold', () => {
    const held = ['notes:*', 'reports:read'];
    const scopes = ['notes:read', 'reports:*', 'users:read'];
    const both = intersectPermissions(held, scopes);
    for (const required of ['notes:read', 'notes:delete', 'reports:read', 'reports:write', 'users:read']) {
      expect(grantsPermission(both, required)).toBe(grantsPermission(held, required) && grantsPermission(scopes, required));
    }
  });
});

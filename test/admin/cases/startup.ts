import { describe, expect, it } from '@jest/globals';
import { AuthConfigError } from '#svc/auth';
import { createAdminApp } from '../admin-kit.js';

// docs/guides/administration.md: the admin section needs the policy and a secret; the policy must
// grant what the admin routes ask for.
describe('the admin section at startup', () => {
  it('stops startup without authorization, naming admin', async () => {
    await expect(createAdminApp('sqlite', 'session', { authorization: undefined })).rejects.toThrow(new AuthConfigError('admin', 'needs the authorization section: each admin route is behind a permission of its policy (users:read, users:ban, ...)'));
  });

  it('stops startup without a secret to derive the cursor key from, naming secret', async () => {
    await expect(createAdminApp('sqlite', 'session', { secret: undefined })).rejects.toThrow(/^secret is required with admin/);
  });

  it('stops startup with a lifetime of impersonation over an hour', async () => {
    await expect(createAdminApp('sqlite', 'session', { admin: { impersonationTtlSeconds: 3601 } })).rejects.toThrow(/admin\.impersonationTtlSeconds/);
  });

  it('stops startup when no role of the policy grants a permission an admin route needs', async () => {
    await expect(createAdminApp('sqlite', 'session', { authorization: { roles: { admin: ['users:read', 'users:ban'] } } })).rejects.toThrow(/does not define the permission "users:(roles|update|delete|impersonate)"/);
  });
});

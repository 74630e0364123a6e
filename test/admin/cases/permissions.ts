import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { type AdminApp, createAdminApp, type Held } from '../admin-kit.js';

// docs/guides/administration.md, "The routes and their permissions" and "The last administrator".
// Behaviour, on SQLite, but for two administrators deactivating each other at once: the lock of the
// holders' rows, on every engine.
const cases = credentialCases(await availableEngines());
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Every admin route but stop, with the permission it needs; `{id}` is the target user. */
const ROUTES = [
  ['get', '/admin/users', 'users:read'],
  ['get', '/admin/users/{id}', 'users:read'],
  ['post', '/admin/users/{id}/roles', 'users:roles'],
  ['delete', '/admin/users/{id}/roles/member', 'users:roles'],
  ['post', '/admin/users/{id}/deactivate', 'users:ban'],
  ['post', '/admin/users/{id}/activate', 'users:ban'],
  ['post', '/admin/users/{id}/revoke-sessions', 'users:ban'],
  ['post', '/admin/users/{id}/password-reset', 'users:update'],
  ['delete', '/admin/users/{id}', 'users:delete'],
  ['post', '/admin/users/{id}/impersonate', 'users:impersonate'],
] as const;

describe.each(cases)('admin permissions and roles on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: AdminApp;
  let root: Held;
  let alice: Held;

  beforeAll(async () => {
    t = await createAdminApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    root = await t.user('root@example.io', ['admin']);
    alice = await t.user('alice@example.io', ['member']);
  });
  afterAll(() => t.close());

  const body = (method: string, path: string) => (path.endsWith('/roles') ? { role: 'member' } : method === 'post' ? {} : undefined);

  behaviourOnly(engine, it.each(ROUTES))('%s %s: 401 UNAUTHENTICATED without a credential, 403 PERMISSION_DENIED without %s', async (method, template, permission) => {
    const path = template.replace('{id}', alice.userId);
    expect((await t.call(null, method, path, body(method, path)).expect(401)).body.code).toBe('UNAUTHENTICATED');
    expect((await t.call(alice, method, path, body(method, path)).expect(403)).body.code).toBe('PERMISSION_DENIED');
    // users:read alone opens the reading routes only.
    const auditor = await t.user('auditor@example.io', ['auditor']);
    const status = (await t.call(auditor, method, path, body(method, path))).status;
    if (permission === 'users:read') expect(status).toBe(200);
    else expect(status).toBe(403);
  });

  behaviourIt('grants a role (204, idempotent), refuses a role the policy does not define (400 ROLE_UNKNOWN), and it counts at the next request', async () => {
    await t.call(root, 'post', `/admin/users/${alice.userId}/roles`, { role: 'auditor' }).expect(204);
    await t.call(root, 'post', `/admin/users/${alice.userId}/roles`, { role: 'auditor' }).expect(204);
    expect(await t.auth.rolesOf(alice.userId)).toEqual(['auditor', 'member']);
    expect((await t.me(alice).expect(200)).body.roles).toEqual(['auditor', 'member']);
    await t.call(alice, 'get', '/admin/users').expect(200);
    expect((await t.call(root, 'post', `/admin/users/${alice.userId}/roles`, { role: 'owner' }).expect(400)).body.code).toBe('ROLE_UNKNOWN');
    expect((await t.call(root, 'post', `/admin/users/${alice.userId}/roles`, {}).expect(400)).body.code).toBe('VALIDATION_FAILED');
    await t.call(root, 'post', `/admin/users/${UNKNOWN}/roles`, { role: 'auditor' }).expect(404);
  });

  behaviourIt('revokes a role the user holds (204, refused at the next request), 404 for one it does not hold', async () => {
    await t.call(root, 'post', `/admin/users/${alice.userId}/roles`, { role: 'auditor' }).expect(204);
    await t.call(alice, 'get', '/admin/users').expect(200);
    await t.call(root, 'delete', `/admin/users/${alice.userId}/roles/auditor`).expect(204);
    expect((await t.call(alice, 'get', '/admin/users').expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.call(root, 'delete', `/admin/users/${alice.userId}/roles/auditor`).expect(404)).body.code).toBe('NOT_FOUND');
    await t.call(root, 'delete', `/admin/users/${UNKNOWN}/roles/auditor`).expect(404);
  });

  behaviourIt('never leaves nobody active holding users:roles: revoking, deactivating or deleting the last one is 409 LAST_ADMIN', async () => {
    expect((await t.call(root, 'delete', `/admin/users/${root.userId}/roles/admin`).expect(409)).body.code).toBe('LAST_ADMIN');
    expect((await t.call(root, 'post', `/admin/users/${root.userId}/deactivate`).expect(409)).body.code).toBe('LAST_ADMIN');
    expect((await t.call(root, 'delete', `/admin/users/${root.userId}`).expect(409)).body.code).toBe('LAST_ADMIN');
    await expect(t.auth.deactivateUser(root.userId)).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    await expect(t.auth.deleteUser(root.userId)).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    await t.me(root).expect(200);
    // An inactive holder manages nothing: with the second admin deactivated, root is still the last.
    const second = await t.user('second@example.io', ['admin']);
    await t.call(root, 'post', `/admin/users/${second.userId}/deactivate`).expect(204);
    expect((await t.call(root, 'delete', `/admin/users/${root.userId}/roles/admin`).expect(409)).body.code).toBe('LAST_ADMIN');
    // With another active admin, the first may go.
    await t.call(root, 'post', `/admin/users/${second.userId}/activate`).expect(204);
    await t.call(root, 'delete', `/admin/users/${root.userId}`).expect(204);
    const again = await t.user('second@example.io');
    expect((await t.call(again, 'delete', `/admin/users/${second.userId}`).expect(409)).body.code).toBe('LAST_ADMIN');
  });

  it('two administrators deactivating each other at once: one wins, one active administrator is left', async () => {
    const other = await t.user('other@example.io', ['admin']);
    const [first, second] = await Promise.all([
      t.call(root, 'post', `/admin/users/${other.userId}/deactivate`),
      t.call(other, 'post', `/admin/users/${root.userId}/deactivate`),
    ]);
    // The loser is 409 LAST_ADMIN, or 401 when the winner ended its credential before it was resolved.
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(204);
    expect([401, 409]).toContain(statuses[1]);
    const page = await t.auth.listUsers({ query: 'r' });
    const active = [...page.users, ...(await t.auth.listUsers({ query: 'o' })).users].filter((user) => user.isActive && user.roles?.includes('admin'));
    expect(active).toHaveLength(1);
  });

  behaviourIt("lists and details carry each user's roles", async () => {
    const page = (await t.call(root, 'get', '/admin/users').expect(200)).body;
    expect(Object.fromEntries(page.users.map((user: { email: string; roles: string[] }) => [user.email, user.roles]))).toEqual({ 'root@example.io': ['admin'], 'alice@example.io': ['member'] });
    expect((await t.call(root, 'get', `/admin/users/${alice.userId}`).expect(200)).body.roles).toEqual(['member']);
  });

  behaviourIt('refuses to impersonate a user who may impersonate others (403 PERMISSION_DENIED); the credential of another carries its roles', async () => {
    const support = await t.user('support@example.io', ['support']);
    expect((await t.call(root, 'post', `/admin/users/${support.userId}/impersonate`).expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.call(support, 'post', `/admin/users/${root.userId}/impersonate`).expect(403)).body.code).toBe('PERMISSION_DENIED');
    const response = await t.call(support, 'post', `/admin/users/${alice.userId}/impersonate`).expect(200);
    const acting = t.heldFrom(response, alice);
    expect((await t.me(acting).expect(200)).body).toEqual(expect.objectContaining({ id: alice.userId, roles: ['member'], permissions: [], impersonatedBy: support.userId }));
    if (credential === 'session') expect(response.body.roles).toEqual(['member']);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AdminApp, createAdminApp, type Held } from '../admin-kit.js';

// docs/guides/administration.md, "Acting on a user": deactivate and activate, end every credential,
// send a reset, delete; each 404 for an unknown user, the acting administrator in the events.
// Behaviour: SQLite, each credential (the races of the last administrator are in permissions.ts).
const cases = credentialCases(BEHAVIOUR_ENGINES);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(cases)('acting on a user on %s, %s credential', (engine, credential) => {
  let t: AdminApp;
  let admin: Held;
  let alice: Held;

  beforeAll(async () => {
    t = await createAdminApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    admin = await t.user('root@example.io', ['admin']);
    alice = await t.user('alice@example.io');
  });
  afterAll(() => t.close());

  it('deactivation refuses every live credential of the user at its next request, and says who did it and why', async () => {
    const second = await t.user('alice@example.io');
    await t.me(alice).expect(200);
    await t.me(second).expect(200);
    await t.call(admin, 'post', `/admin/users/${alice.userId}/deactivate`, { reason: 'spam' }).expect(204);
    expect((await t.me(alice).expect(401)).body.code).toBe('UNAUTHENTICATED');
    await t.me(second).expect(401);
    if (credential === 'jwt') expect((await t.refresh(alice)).status).toBe(401);
    const [event] = await t.events.waitFor('svc.user.deactivated');
    expect(event).toEqual({ user: expect.objectContaining({ id: alice.userId, email: 'alice@example.io', roles: [] }), actorId: admin.userId, reason: 'spam' });
    expect((await t.call(admin, 'get', `/admin/users/${alice.userId}`).expect(200)).body).toEqual(expect.objectContaining({ isActive: false, sessions: 0 }));
    // Again: nothing changes, no second event.
    await t.call(admin, 'post', `/admin/users/${alice.userId}/deactivate`).expect(204);
    await t.afterResponses();
    expect(t.events.payloadsOf('svc.user.deactivated')).toHaveLength(1);
  });

  it('activation lets the user sign in again, with none of the credentials of before', async () => {
    await t.call(admin, 'post', `/admin/users/${alice.userId}/deactivate`).expect(204);
    await t.call(admin, 'post', `/admin/users/${alice.userId}/activate`).expect(204);
    await t.me(alice).expect(401);
    const [event] = await t.events.waitFor('svc.user.activated');
    expect(event).toEqual({ user: expect.objectContaining({ id: alice.userId }), actorId: admin.userId });
    await t.me(await t.user('alice@example.io')).expect(200);
  });

  it('refuses a deactivation body with an unknown field or an overlong reason (400)', async () => {
    expect((await t.call(admin, 'post', `/admin/users/${alice.userId}/deactivate`, { reason: 'x', ban: true }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await t.call(admin, 'post', `/admin/users/${alice.userId}/deactivate`, { reason: 'x'.repeat(501) }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    await t.me(alice).expect(200);
  });

  it('revoke-sessions ends every credential of the user and nobody else’s', async () => {
    const bob = await t.user('bob@example.io');
    await t.call(admin, 'post', `/admin/users/${alice.userId}/revoke-sessions`).expect(204);
    await t.me(alice).expect(401);
    await t.me(bob).expect(200);
    await t.me(admin).expect(200);
    await t.me(await t.user('alice@example.io')).expect(200);
  });

  it('password-reset sends the user the message forgot-password sends (202)', async () => {
    await t.call(admin, 'post', `/admin/users/${alice.userId}/password-reset`).expect(202);
    const [mail] = await t.events.waitFor('svc.password.reset_requested');
    expect(mail).toEqual(expect.objectContaining({ user: expect.objectContaining({ id: alice.userId }), token: expect.any(String), link: expect.stringContaining('/reset-password?token=') }));
    const password = 'a brand new passphrase';
    await t.call(null, 'post', '/reset-password', { token: mail.token, password }).expect(204);
    await t.call(null, 'post', '/login', { email: 'alice@example.io', password }).expect(200);
  });

  it('delete removes the user and every row of theirs', async () => {
    await t.user('alice@example.io');
    await t.auth.grantRole(alice.userId, 'member');
    await t.call(admin, 'post', `/admin/users/${alice.userId}/password-reset`).expect(202);
    await t.events.waitFor('svc.password.reset_requested');
    await t.call(admin, 'delete', `/admin/users/${alice.userId}`).expect(204);
    await t.me(alice).expect(401);
    for (const table of ['users', 'sessions', 'refresh_tokens', 'refresh_families', 'password_reset_tokens', 'user_roles']) {
      const column = table === 'users' ? 'id' : 'user_id';
      const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ${engine === 'postgres' ? '$1' : '?'}`, [alice.userId]);
      expect(Number(row.n)).toBe(0);
    }
    expect(await t.events.waitFor('svc.user.deleted')).toEqual([{ userId: alice.userId, actorId: admin.userId }]);
    await t.call(admin, 'get', `/admin/users/${alice.userId}`).expect(404);
  });

  it.each([
    ['get', ''],
    ['post', '/deactivate'],
    ['post', '/activate'],
    ['post', '/revoke-sessions'],
    ['post', '/password-reset'],
    ['delete', ''],
    ['post', '/impersonate'],
  ] as const)('%s /admin/users/{unknown}%s answers 404 NOT_FOUND', async (method, suffix) => {
    const response = await t.call(admin, method, `/admin/users/${UNKNOWN}${suffix}`).expect(404);
    expect(response.body).toEqual(expect.objectContaining({ code: 'NOT_FOUND', message: 'No such user' }));
  });

  it('AuthService offers the same operations to the application’s own code', async () => {
    const page = await t.auth.listUsers({ query: 'ali' });
    expect(page.users.map((user) => user.id)).toEqual([alice.userId]);
    expect(await t.auth.userDetails(alice.userId)).toEqual(expect.objectContaining({ id: alice.userId, sessions: 1 }));
    expect(await t.auth.userDetails(UNKNOWN)).toBeNull();
    expect(await t.auth.deactivateUser(alice.userId, { actorId: admin.userId, reason: 'script' })).toBe(true);
    expect(t.events.payloadsOf('svc.user.deactivated')).toEqual([expect.objectContaining({ actorId: admin.userId, reason: 'script' })]);
    expect(await t.auth.deactivateUser(alice.userId)).toBe(false);
    expect(await t.auth.activateUser(alice.userId)).toBe(true);
    expect(await t.auth.sendPasswordReset(alice.userId)).toBe(true);
    expect(t.events.resetMails('alice@example.io')).toHaveLength(1);
    expect(await t.auth.sendPasswordReset(UNKNOWN)).toBe(false);
    expect(await t.auth.deleteUser(alice.userId)).toBe(true);
    expect(await t.auth.deleteUser(alice.userId)).toBe(false);
    expect(await t.auth.findUserById(alice.userId)).toBeNull();
  });
});

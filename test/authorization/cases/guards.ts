import { randomBytes } from 'node:crypto';
import { credentialCases } from '../../support/credential-cases.js';
import { availableEngines, BEHAVIOUR_ENGINES, behaviourOnly } from '../../support/engines.js';
import { type AuthorizationApp, createAuthorizationApp, type Held } from '../authorization-kit.js';

// Behaviour, on SQLite with each credential, but for two revocations of the last admin role at once:
// the lock of the holders' rows, on every engine.
const CASES = credentialCases(await availableEngines());

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.io`;
const denied = { statusCode: 403, error: 'Forbidden', message: 'Permission denied', code: 'PERMISSION_DENIED' };

/** @Roles and @Permissions on the application's routes (docs/guides/roles-and-permissions.md), with each credential. */
describe.each(CASES)('roles and permissions on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: AuthorizationApp;
  beforeAll(async () => {
    t = await createAuthorizationApp(engine, credential);
  });
  afterAll(() => t?.close());

  /** A new user holding `roles` besides the default `member`. */
  async function userWith(...roles: string[]): Promise<Held> {
    const held = await t.signup(unique(roles.join('-') || 'member'));
    for (const role of roles) expect(await t.auth.grantRole(held.userId, role)).toBe(true);
    return held;
  }

  behaviourIt('answers 401 UNAUTHENTICATED without a credential, on @Roles and @Permissions routes alike', async () => {
    for (const test of [t.get('/notes'), t.del('/notes/1'), t.get('/notes/mine'), t.get('/backoffice/stats')]) {
      const response = await test;
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
  });

  behaviourIt('answers 403 PERMISSION_DENIED to a signed-in user without the role or the permissions', async () => {
    const member = await userWith();
    for (const test of [t.get('/notes', member), t.del('/notes/1', member), t.get('/notes/mine', member), t.get('/backoffice/stats', member)]) {
      const response = await test;
      expect(response.status).toBe(403);
      expect(response.body).toEqual(denied);
    }
  });

  behaviourIt('@Roles: any of the roles is enough', async () => {
    const reader = await userWith('reader');
    expect((await t.get('/notes', reader)).body).toEqual({ ok: 'list' });
    const editor = await userWith('editor');
    expect((await t.get('/notes', editor)).status).toBe(200);
  });

  behaviourIt('@Permissions: all of them are needed; <resource>:* grants every action of the resource', async () => {
    const reader = await userWith('reader');
    // notes:read alone: notes:delete is missing.
    expect((await t.del('/notes/1', reader)).status).toBe(403);
    const editor = await userWith('editor');
    const removed = await t.del('/notes/1', editor);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: 'removed' });
  });

  behaviourIt('works on top of CurrentUserGuard, whose request.user carries roles and permissions', async () => {
    const reader = await userWith('reader');
    const mine = await t.get('/notes/mine', reader);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: reader.userId, roles: ['member', 'reader'], permissions: ['notes:read'] });
  });

  behaviourIt("a controller's @Roles and a handler's @Permissions must both hold", async () => {
    const admin = await userWith('admin');
    expect((await t.get('/backoffice/stats', admin)).body).toEqual({ ok: 'stats' });
    // users:* grants users:read; audit:read is the role's own.
    expect((await t.get('/backoffice/audit', admin)).body).toEqual({ ok: 'audit' });
    const editor = await userWith('editor');
    expect((await t.get('/backoffice/stats', editor)).status).toBe(403);
  });

  behaviourIt('/me gives roles (sorted) and permissions (their union, sorted, as written: users:* not expanded)', async () => {
    const held = await userWith('reader', 'admin', 'editor');
    const me = await t.get('/auth/me', held);
    expect(me.status).toBe(200);
    expect(me.body.roles).toEqual(['admin', 'editor', 'member', 'reader']);
    expect(me.body.permissions).toEqual(['audit:read', 'notes:*', 'notes:read', 'users:*']);
  });

  behaviourIt('gives a new user the default roles in the signup; the signup and login bodies carry roles, never permissions', async () => {
    const email = unique('signup');
    const held = await t.signup(email);
    const rows: { role: string; granted_by: string | null }[] = await t.dataSource.query(`SELECT role, granted_by FROM user_roles WHERE user_id = '${held.userId}'`);
    expect(rows).toEqual([{ role: 'member', granted_by: null }]);
    const me = await t.get('/auth/me', held);
    expect(me.body).toMatchObject({ roles: ['member'], permissions: [] });
    if (credential === 'session') {
      expect(held.body).toMatchObject({ id: held.userId, roles: ['member'] });
      expect(held.body).not.toHaveProperty('permissions');
      await t.auth.grantRole(held.userId, 'reader');
      const login = await t.login(email);
      expect(login.body).toMatchObject({ roles: ['member', 'reader'] });
      expect(login.body).not.toHaveProperty('permissions');
    }
  });

  behaviourIt('a grant, then a revocation, takes effect at the very next request', async () => {
    const held = await userWith();
    expect((await t.get('/notes', held)).status).toBe(403);
    await t.auth.grantRole(held.userId, 'reader');
    expect((await t.get('/notes', held)).status).toBe(200);
    await t.auth.revokeRole(held.userId, 'reader');
    expect((await t.get('/notes', held)).status).toBe(403);
    expect((await t.get('/auth/me', held)).body.roles).toEqual(['member']);
  });

  behaviourIt('AuthService: a grant is recorded with its actor, twice changes nothing; unknown roles, users and roles not held are refused', async () => {
    const actor = await userWith('admin');
    const held = await userWith();
    expect(await t.auth.grantRole(held.userId, 'editor', { actorId: actor.userId })).toBe(true);
    expect(await t.auth.grantRole(held.userId, 'editor')).toBe(false);
    const [row]: { granted_by: string }[] = await t.dataSource.query(`SELECT granted_by FROM user_roles WHERE user_id = '${held.userId}' AND role = 'editor'`);
    expect(row.granted_by).toBe(actor.userId);
    expect(await t.auth.rolesOf(held.userId)).toEqual(['editor', 'member']);
    await expect(t.auth.grantRole(held.userId, 'root')).rejects.toMatchObject({ code: 'ROLE_UNKNOWN', status: 400 });
    await expect(t.auth.grantRole('00000000-0000-4000-8000-000000000000', 'editor')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(t.auth.revokeRole(held.userId, 'reader')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(t.auth.rolesOf('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  behaviourIt('LAST_ADMIN: the last active holder of users:roles keeps it', async () => {
    await t.reset();
    const first = await userWith('admin');
    await expect(t.auth.revokeRole(first.userId, 'admin')).rejects.toMatchObject({ code: 'LAST_ADMIN', status: 409 });
    const second = await userWith('admin');
    await t.auth.revokeRole(first.userId, 'admin');
    await expect(t.auth.revokeRole(second.userId, 'admin')).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    // An inactive holder does not count.
    await t.auth.grantRole(first.userId, 'admin');
    await t.auth.deactivateUser(first.userId);
    await expect(t.auth.revokeRole(second.userId, 'admin')).rejects.toMatchObject({ code: 'LAST_ADMIN' });
    // Revoking an inactive holder's role leaves the active one: allowed.
    await t.auth.revokeRole(first.userId, 'admin');
    expect(await t.auth.rolesOf(second.userId)).toEqual(['admin', 'member']);
  });

  it('LAST_ADMIN: of two admins revoked at once, one keeps the role', async () => {
    await t.reset();
    const [first, second] = [await userWith('admin'), await userWith('admin')];
    const outcomes = await Promise.allSettled([t.auth.revokeRole(first.userId, 'admin'), t.auth.revokeRole(second.userId, 'admin')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual(['LAST_ADMIN']);
    const holders: unknown[] = await t.dataSource.query(`SELECT user_id FROM user_roles WHERE role = 'admin'`);
    expect(holders).toHaveLength(1);
  });
});

/** The global guard: @Roles and @Permissions without @UseGuards, and @Public routes untouched. */
describe.each(BEHAVIOUR_ENGINES)('roles and permissions under the global guard on %s', (engine) => {
  let t: AuthorizationApp;
  beforeAll(async () => {
    t = await createAuthorizationApp(engine, 'session', { globalGuard: true });
  });
  afterAll(() => t?.close());

  it('401 without a credential, 403 without the role, 200 with it', async () => {
    expect((await t.get('/notes')).body.code).toBe('UNAUTHENTICATED');
    const held = await t.signup(unique('global'));
    expect((await t.get('/notes', held)).body.code).toBe('PERMISSION_DENIED');
    await t.auth.grantRole(held.userId, 'reader');
    expect((await t.get('/notes', held)).status).toBe(200);
    expect((await t.get('/profile', held)).body.roles).toEqual(['member', 'reader']);
  });
});

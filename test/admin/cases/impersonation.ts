import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TestClock } from '../../support/test-app.js';
import { type AdminApp, claimsOf, createAdminApp, type Held, MINUTE, PASSWORD } from '../admin-kit.js';

// docs/guides/administration.md, "Impersonation": the user's credential as a login issues it,
// marked with the administrator, at most an hour, refused where the account's ways in change.
// Behaviour: SQLite, with each credential.
const cases = credentialCases(BEHAVIOUR_ENGINES);

describe.each(cases)('impersonation on %s, %s credential', (engine, credential) => {
  const clock = new TestClock();
  const start = clock.now();
  let t: AdminApp;
  let admin: Held;
  let alice: Held;

  beforeAll(async () => {
    t = await createAdminApp(engine, credential, {}, clock);
  });
  beforeEach(async () => {
    await t.reset();
    clock.set(start);
    admin = await t.user('root@example.io', ['admin']);
    alice = await t.user('alice@example.io');
  });
  afterAll(() => t.close());

  async function impersonate(): Promise<Held> {
    const response = await t.call(admin, 'post', `/admin/users/${alice.userId}/impersonate`).expect(200);
    if (credential === 'session') expect(response.body).toEqual(expect.objectContaining({ id: alice.userId, email: 'alice@example.io' }));
    else expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: expect.any(Number) });
    return t.heldFrom(response, alice);
  }

  it("answers the user's credential as a login would, marked with the administrator; the administrator's own stays", async () => {
    const acting = await impersonate();
    expect((await t.me(acting).expect(200)).body).toEqual(expect.objectContaining({ id: alice.userId, impersonatedBy: admin.userId }));
    if (credential === 'jwt') expect(claimsOf(acting.headers.Authorization.slice('Bearer '.length)).act).toEqual({ sub: admin.userId });
    const own = (await t.me(admin).expect(200)).body;
    expect(own.id).toBe(admin.userId);
    expect(own).not.toHaveProperty('impersonatedBy');
    expect((await t.me(alice).expect(200)).body).not.toHaveProperty('impersonatedBy');
    expect(await t.events.waitFor('svc.impersonation.started')).toEqual([{ user: expect.objectContaining({ id: alice.userId }), actorId: admin.userId }]);
    expect(t.events.payloadsOf('svc.login.after')).toEqual([]);
  });

  it.each([
    ['post', '/change-password', { current_password: PASSWORD, new_password: 'another long passphrase' }],
    ['post', '/admin/users/00000000-0000-4000-8000-000000000000/deactivate', {}],
    ['get', '/admin/users', undefined],
  ] as const)('refuses %s %s to the impersonated credential with 403 IMPERSONATION_RESTRICTED', async (method, path, body) => {
    const acting = await impersonate();
    expect((await t.call(acting, method, path, body).expect(403)).body.code).toBe('IMPERSONATION_RESTRICTED');
  });

  it('stop ends the impersonated credential (204) and clears its cookie', async () => {
    const acting = await impersonate();
    const response = await t.call(acting, 'post', '/admin/impersonation/stop').expect(204);
    expect(String(response.headers['set-cookie'])).toContain(credential === 'session' ? 'svc_session=;' : 'svc_refresh=;');
    await t.me(acting).expect(401);
    if (credential === 'jwt') expect((await t.refresh(acting)).status).toBe(401);
    await t.me(admin).expect(200);
    await t.me(alice).expect(200);
    expect(await t.events.waitFor('svc.impersonation.stopped')).toEqual([{ userId: alice.userId, actorId: admin.userId }]);
  });

  it("stop answers 409 NOT_IMPERSONATING to a user's own credential and 401 without one", async () => {
    expect((await t.call(admin, 'post', '/admin/impersonation/stop').expect(409)).body.code).toBe('NOT_IMPERSONATING');
    expect((await t.call(null, 'post', '/admin/impersonation/stop').expect(401)).body.code).toBe('UNAUTHENTICATED');
  });

  it('ends the impersonation after an hour at most, however it is used', async () => {
    const acting = await impersonate();
    clock.advance(55 * MINUTE);
    if (credential === 'jwt') {
      expect((await t.refresh(acting)).status).toBe(200);
      expect(claimsOf(acting.headers.Authorization.slice('Bearer '.length)).act).toEqual({ sub: admin.userId });
    }
    expect((await t.me(acting).expect(200)).body.impersonatedBy).toBe(admin.userId);
    clock.advance(5 * MINUTE + 1000);
    await t.me(acting).expect(401);
    if (credential === 'jwt') expect((await t.refresh(acting)).status).toBe(401);
    // The administrator's own credential lives on (jwt: its access token has expired; its refresh works).
    if (credential === 'jwt') expect((await t.refresh(admin)).status).toBe(200);
    await t.me(admin).expect(200);
  });

  it('answers 403 USER_INACTIVE for an inactive user', async () => {
    await t.auth.deactivateUser(alice.userId);
    expect((await t.call(admin, 'post', `/admin/users/${alice.userId}/impersonate`).expect(403)).body.code).toBe('USER_INACTIVE');
  });
});

import { Injectable } from '@nestjs/common';
import request from 'supertest';
import { AuthEvent, type AuthHooks, AuthService, HookAbort, type LogoutPayload } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { claimsOf, createJwtApp, type JwtApp, tokensOf } from '../jwt-kit.js';

const ENGINES = await availableEngines();

const seen: { logout: LogoutPayload[]; abort: boolean } = { logout: [], abort: false };

@Injectable()
class LogoutHooks implements AuthHooks {
  beforeLogout(payload: LogoutPayload): LogoutPayload {
    seen.logout.push(payload);
    if (seen.abort) throw new HookAbort('Stay a while');
    return payload;
  }
}

describe.each(ENGINES)('jwt logout on %s', (engine) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine, hooks: LogoutHooks });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.logout.length = 0;
    seen.abort = false;
  });

  const familyRevoked = async (accessToken: string) => {
    const rows = (await t.dataSource.query('SELECT * FROM refresh_tokens')) as { family_id: string; revoked_at: unknown }[];
    const family = rows.filter((row) => row.family_id === claimsOf(accessToken).sid);
    expect(family.length).toBeGreaterThan(0);
    return family.every((row) => row.revoked_at !== null);
  };

  function expectCleared(response: request.Response): void {
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const cleared = cookiesOf(response).svc_refresh;
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Path=/auth', 'HttpOnly', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT']));
  }

  it('with the refresh cookie: 204, the family revoked, its access token refused, svc.logout.after fired', async () => {
    const account = await t.account('cookie@x.io');
    const otherDevice = tokensOf(await t.login('cookie@x.io'));
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.LogoutAfter).length;
    expectCleared(await t.logout({ refresh: account.refresh }));
    expect(await familyRevoked(account.access)).toBe(true);
    expect((await t.me(account.access)).status).toBe(401);
    expect((await t.refresh(account.refresh)).status).toBe(401);
    expect(seen.logout).toEqual([{ user: { id: account.userId, email: 'cookie@x.io', displayName: null, plan: 'free' } }]);
    expect((await t.events.waitFor(AuthEvent.LogoutAfter, before + 1))[before]).toEqual({ userId: account.userId });
    // Only that family: the other device stays logged in.
    expect((await t.me(otherDevice.access)).status).toBe(200);
    expect(await familyRevoked(otherDevice.access)).toBe(false);
  });

  it('with the bearer token only: the family of its sid is revoked', async () => {
    const account = await t.account('bearer@x.io');
    expectCleared(await t.logout({ bearer: account.access }));
    expect(await familyRevoked(account.access)).toBe(true);
    expect((await t.refresh(account.refresh)).status).toBe(401);
    expect(seen.logout).toEqual([{ user: expect.objectContaining({ id: account.userId }) }]);
  });

  it('with nothing, or with an invalid bearer token: still 204 (idempotent), nothing revoked, no event', async () => {
    const account = await t.account('nothing@x.io');
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.LogoutAfter).length;
    expectCleared(await t.logout({}));
    expectCleared(await t.logout({ bearer: `${account.access.slice(0, -4)}AAAA` }));
    expectCleared(await t.logout({ refresh: 'B'.repeat(43) }));
    expect(seen.logout).toEqual([{ user: null }, { user: null }, { user: null }]);
    expect(await familyRevoked(account.access)).toBe(false);
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.LogoutAfter)).toHaveLength(before);
  });

  it('twice: 204 both times, one svc.logout.after', async () => {
    const account = await t.account('twice@x.io');
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.LogoutAfter).length;
    expectCleared(await t.logout({ refresh: account.refresh, bearer: account.access }));
    expectCleared(await t.logout({ refresh: account.refresh, bearer: account.access }));
    await t.events.waitFor(AuthEvent.LogoutAfter, before + 1);
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.LogoutAfter)).toHaveLength(before + 1);
  });

  behaviourIt('beforeLogout can refuse: 403 HOOK_ABORTED, nothing revoked, the cookie kept', async () => {
    const account = await t.account('stay@x.io');
    seen.abort = true;
    const refused = await t.logout({ refresh: account.refresh });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('HOOK_ABORTED');
    expect(cookiesOf(refused).svc_refresh).toBeUndefined();
    expect(await familyRevoked(account.access)).toBe(false);
  });

  behaviourIt('a cookie-authenticated logout from another origin is refused; a bearer-only one needs no check (docs/decisions/0023-cross-site-requests.md)', async () => {
    const account = await t.account('origin@x.io');
    const evil = await request(t.url).post('/auth/logout').set('Cookie', `svc_refresh=${account.refresh}`).set('Origin', 'https://evil.test');
    expect(evil.status).toBe(403);
    expect(evil.body.code).toBe('CSRF_REJECTED');
    expect(await familyRevoked(account.access)).toBe(false);
    const bearer = await request(t.url).post('/auth/logout').set('Authorization', `Bearer ${account.access}`).set('Origin', 'https://api-client.test');
    expect(bearer.status).toBe(204);
    expect(await familyRevoked(account.access)).toBe(true);
  });

  it('AuthService.revokeAllCredentials logs a user out everywhere, and only that user', async () => {
    const first = await t.account('everywhere@x.io');
    const second = tokensOf(await t.login('everywhere@x.io'));
    const bystander = await t.account('bystander@x.io');
    await t.app.get(AuthService).revokeAllCredentials(first.userId);
    for (const access of [first.access, second.access]) expect((await t.me(access)).status).toBe(401);
    for (const refresh of [first.refresh, second.refresh]) expect((await t.refresh(refresh)).status).toBe(401);
    expect((await t.me(bystander.access)).status).toBe(200);
    // Logging in again starts a new, live family.
    expect((await t.me(tokensOf(await t.login('everywhere@x.io')).access)).status).toBe(200);
  });
});

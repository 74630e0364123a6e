import { Injectable } from '@nestjs/common';
import { CapturingLogger } from '../../support/capturing-logger.js';
import request from 'supertest';
import { AuthEvent, type AuthHooks, HookAbort, type RefreshPayload } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { BASE_URL, cookiesOf } from '../../support/test-app.js';
import { claimsOf, createJwtApp, DAY, type JwtApp, PASSWORD, tokensOf } from '../jwt-kit.js';

const ENGINES = await availableEngines();

const seen: { refresh: RefreshPayload[]; abort: boolean } = { refresh: [], abort: false };

@Injectable()
class RefreshHooks implements AuthHooks {
  beforeRefresh(payload: RefreshPayload): RefreshPayload {
    seen.refresh.push(payload);
    if (seen.abort) throw new HookAbort('Refresh paused');
    return payload;
  }
}

interface Row {
  id: string;
  family_id: string;
  user_id: string;
  consumed_at: unknown;
  revoked_at: unknown;
}

describe.each(ENGINES)('jwt refresh on %s', (engine) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: JwtApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    t = await createJwtApp({ engine, hooks: RefreshHooks, logger });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.refresh.length = 0;
    seen.abort = false;
  });

  const familyRows = async (familyId: unknown): Promise<Row[]> =>
    ((await t.dataSource.query('SELECT * FROM refresh_tokens')) as Row[]).filter((row) => row.family_id === familyId);

  /** A refused refresh: 401 REFRESH_TOKEN_INVALID and the refresh cookie cleared. */
  function expectRefused(response: request.Response, code = 'REFRESH_TOKEN_INVALID', status = 401): void {
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    const cleared = cookiesOf(response).svc_refresh;
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Path=/auth', 'HttpOnly', 'Secure', 'SameSite=Lax', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT']));
  }

  it('rotation: a fresh pair in the same family, the presented token consumed, svc.refresh.after fired', async () => {
    const first = await t.account('rotate@x.io');
    const response = await t.refresh(first.refresh);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(response.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
    const cookie = cookiesOf(response).svc_refresh;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Max-Age=604800', 'Path=/auth', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    const second = tokensOf(response);
    expect(second.refresh).not.toBe(first.refresh);
    const familyId = claimsOf(first.access).sid;
    expect(claimsOf(second.access).sid).toBe(familyId);
    expect(claimsOf(second.access).jti).not.toBe(claimsOf(first.access).jti);

    const rows = await familyRows(familyId);
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.consumed_at !== null)).toHaveLength(1);
    expect(rows.every((row) => row.revoked_at === null)).toBe(true);

    expect((await t.me(second.access)).status).toBe(200);
    // Rotation ends no access token: the family lives on.
    expect((await t.me(first.access)).status).toBe(200);
    const events = await t.events.waitFor(AuthEvent.RefreshAfter);
    expect(events).toContainEqual({ userId: first.userId, familyId });
    expect(seen.refresh).toEqual([{ hasRefreshToken: true }]);

    const third = await t.refresh(second.refresh);
    expect(third.status).toBe(200);
    expect(await familyRows(familyId)).toHaveLength(3);
  });

  it('reuse of a consumed token revokes the whole family and fires svc.token_reuse_detected once', async () => {
    const stolen = await t.account('reuse@x.io');
    const other = tokensOf(await t.login('reuse@x.io'));
    const familyId = claimsOf(stolen.access).sid;
    const rotated = tokensOf(await t.refresh(stolen.refresh));
    const newest = tokensOf(await t.refresh(rotated.refresh));
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.TokenReuseDetected).length;

    expectRefused(await t.refresh(stolen.refresh));
    const rows = await familyRows(familyId);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);

    // The newest refresh token and every live access token of the family stop working at once.
    expectRefused(await t.refresh(newest.refresh));
    for (const access of [stolen.access, rotated.access, newest.access]) {
      const me = await t.me(access);
      expect(me.status).toBe(401);
      expect(me.headers['www-authenticate']).toBe('Bearer');
    }
    // The user's other family (another device) is untouched.
    expect((await t.me(other.access)).status).toBe(200);
    expect((await t.refresh(other.refresh)).status).toBe(200);

    expectRefused(await t.refresh(stolen.refresh));
    const events = await t.events.waitFor(AuthEvent.TokenReuseDetected, before + 1);
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.TokenReuseDetected)).toHaveLength(before + 1);
    const event = events[before];
    expect(event).toEqual({ userId: stolen.userId, familyId, ip: '127.0.0.1', at: t.clock.now() });
    expect(JSON.stringify(event)).not.toContain(stolen.refresh);
    const warnings = logger.lines.filter((line) => line.text.includes('reuse'));
    expect(warnings).toEqual([{ level: 'warn', text: `refresh token reuse detected: family ${familyId} of user ${stolen.userId} revoked\nsvc` }]);
    for (const token of [stolen.refresh, rotated.refresh, newest.refresh, stolen.access]) expect(JSON.stringify(logger.lines)).not.toContain(token);
  });

  it('missing, unknown, expired and revoked tokens: 401 REFRESH_TOKEN_INVALID, cookie cleared, nothing revoked', async () => {
    const missing = await t.refresh();
    expectRefused(missing);
    expect(seen.refresh).toEqual([{ hasRefreshToken: false }]);
    expectRefused(await t.refresh('A'.repeat(43)));
    expectRefused(await t.refresh('not even base64url!'));

    const account = await t.account('expired@x.io');
    const familyId = claimsOf(account.access).sid;
    t.clock.advance(7 * DAY);
    expectRefused(await t.refresh(account.refresh));
    t.clock.advance(-7 * DAY);
    expect((await familyRows(familyId)).every((row) => row.revoked_at === null && row.consumed_at === null)).toBe(true);

    const loggedOut = await t.account('revoked@x.io');
    expect((await t.logout({ refresh: loggedOut.refresh })).status).toBe(204);
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.TokenReuseDetected).length;
    expectRefused(await t.refresh(loggedOut.refresh));
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.TokenReuseDetected)).toHaveLength(before);
  });

  it('a token is valid until its expiry: 7 days by default', async () => {
    const account = await t.account('lifetime@x.io');
    t.clock.advance(7 * DAY - 1000);
    const response = await t.refresh(account.refresh);
    t.clock.advance(-(7 * DAY - 1000));
    expect(response.status).toBe(200);
  });

  it('an inactive user: 403 USER_INACTIVE with the cookie cleared; the token is not consumed', async () => {
    const account = await t.account('inactive@x.io');
    await t.dataSource.query(`UPDATE users SET is_active = false WHERE id = '${account.userId}'`);
    expectRefused(await t.refresh(account.refresh), 'USER_INACTIVE', 403);
    expect((await familyRows(claimsOf(account.access).sid)).every((row) => row.consumed_at === null)).toBe(true);
  });

  behaviourIt('beforeRefresh can refuse: 403 HOOK_ABORTED, the token stays unused', async () => {
    const account = await t.account('hooked@x.io');
    seen.abort = true;
    const refused = await t.refresh(account.refresh);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'HOOK_ABORTED', message: 'Refresh paused' });
    seen.abort = false;
    expect((await t.refresh(account.refresh)).status).toBe(200);
  });

  behaviourIt('cross-site refresh is refused before the token is touched (docs/decisions/0023-cross-site-requests.md)', async () => {
    const account = await t.account('csrf@x.io');
    const evil = await request(t.url).post('/auth/refresh').set('Cookie', `svc_refresh=${account.refresh}`).set('Origin', 'https://evil.test');
    expect(evil.status).toBe(403);
    expect(evil.body.code).toBe('CSRF_REJECTED');
    const sneaky = await request(t.url).post('/auth/refresh').set('Cookie', `svc_refresh=${account.refresh}`).set('Sec-Fetch-Site', 'cross-site');
    expect(sneaky.status).toBe(403);
    const sameOrigin = await request(t.url).post('/auth/refresh').set('Cookie', `svc_refresh=${account.refresh}`).set('Origin', BASE_URL);
    expect(sameOrigin.status).toBe(200);
  });

  it('a race of 20 parallel refreshes with one token: exactly one 200', async () => {
    const account = await t.account('race@x.io');
    const familyId = claimsOf(account.access).sid;
    const responses = await Promise.all(Array.from({ length: 20 }, () => t.refresh(account.refresh)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(19);
    const rows = await familyRows(familyId);
    // One rotation happened; the 19 others were reuses and revoked the family (grace is 0).
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.consumed_at !== null)).toHaveLength(1);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
    const winner = tokensOf(responses.find((response) => response.status === 200)!);
    expectRefused(await t.refresh(winner.refresh));
    expect((await t.me(winner.access)).status).toBe(401);
  });

  it('login still works after the races (nothing left locked)', async () => {
    expect((await t.login('race@x.io', PASSWORD)).status).toBe(200);
  });
});

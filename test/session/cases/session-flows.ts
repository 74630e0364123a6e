import bcrypt from 'bcrypt';
import request from 'supertest';
import { lowCostOf } from '#svc/auth/testing';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf, createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app.js';

const ENGINES = await availableEngines();
const DAY = 86_400_000;

describe.each(ENGINES)('session strategy on %s', (engine) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine, options: { session: { maxPerUser: 3 } } });
  });
  beforeEach(() => t.reset());
  afterAll(() => t?.close());

  /** Runs `body` with `t` an app of other options, then gives the shared app back. */
  async function withOwnApp(options: Omit<TestAppOptions, 'engine'>, body: () => Promise<void>): Promise<void> {
    const shared = t;
    t = await createTestApp({ engine, ...options });
    try {
      await body();
    } finally {
      await t.close();
      t = shared;
    }
  }

  const signup = (body: Record<string, unknown>) => request(t.server).post('/auth/signup').send(body);
  const login = (email: string, password: string, cookie?: string) => {
    const r = request(t.server).post('/auth/login');
    if (cookie) r.set('Cookie', `svc_session=${cookie}`);
    return r.send({ email, password });
  };
  const me = (cookie: string) => request(t.server).get('/auth/me').set('Cookie', `svc_session=${cookie}`);
  const rows = (table: string) => t.dataSource.query(`SELECT * FROM ${table}`);

  it('signup creates the user, answers 201 with the user body and sets the session cookie', async () => {
    const response = await signup({ email: '  Alice@Example.IO ', password: 'correct horse', displayName: 'Alice' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['displayName', 'email', 'id', 'plan']);
    expect(response.body).toMatchObject({ email: 'alice@example.io', displayName: 'Alice', plan: 'free' });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const cookie = cookiesOf(response).svc_session;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Max-Age=604800', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));

    const [user] = await rows('users');
    expect(user.email).toBe('alice@example.io');
    expect(user.password_hash).toMatch(/^\$2b\$04\$/); // cost 10, which the testing kit's hasher makes lowCostOf(10) = 4
    expect(bcrypt.getRounds(user.password_hash)).toBe(lowCostOf(10));
    expect(user.password_hash).not.toContain('correct horse');
    const [session] = await rows('sessions');
    expect(session.user_id).toBe(user.id);
    expect(session.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(session.token_hash).not.toBe(cookie.value);
  });

  behaviourIt('tagged columns: @SvcInput accepted, @SvcReturned returned, untagged neither', async () => {
    const refused = await signup({ email: 'a@x.io', password: 'correct horse', internalNote: 'vip' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.message).toEqual(expect.arrayContaining(['property internalNote should not exist']));
    const planRefused = await signup({ email: 'a@x.io', password: 'correct horse', plan: 'pro' });
    expect(planRefused.status).toBe(400);

    await t.dataSource.query(`UPDATE users SET internal_note = 'secret note'`);
    const created = await signup({ email: 'b@x.io', password: 'correct horse' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), email: 'b@x.io', displayName: null, plan: 'free' });
    await t.dataSource.query(`UPDATE users SET internal_note = 'secret note'`);
    const body = (await me(cookiesOf(created).svc_session.value)).body;
    expect(body).not.toHaveProperty('internalNote');
    expect(body).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(body)).not.toContain('secret note');
  });

  behaviourIt('validates the signup body: types, lengths, unknown fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email', password: 'correct horse' }, 'email'],
      [{ email: 'a@x.io', password: 'short' }, 'password must be at least 8 characters'],
      [{ email: 'a@x.io', password: 'é'.repeat(37) }, 'password must be at most 72 bytes (UTF-8)'],
      [{ email: 'a@x.io', password: 12345678 }, 'password'],
      [{ email: 'a@x.io', password: 'correct horse', displayName: '' }, 'displayName'],
      [{ email: 'a@x.io', password: 'correct horse', displayName: 'x'.repeat(65) }, 'displayName'],
      [{ email: 'a@x.io', password: 'correct horse', isActive: false }, 'property isActive should not exist'],
    ];
    for (const [body, problem] of cases) {
      const response = await signup(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.message.join(' ')).toContain(problem);
    }
    expect(await rows('users')).toHaveLength(0);
    // 36 two-byte characters are 72 bytes: accepted, never truncated.
    expect((await signup({ email: 'a@x.io', password: 'é'.repeat(36) })).status).toBe(201);
  });

  behaviourIt('passwords are NFKC-normalised: the same password in another form logs in', async () => {
    await signup({ email: 'a@x.io', password: 'ｐａｓｓｗｏｒｄ１２' });
    expect((await login('a@x.io', 'password12')).status).toBe(200);
  });

  it('signup with a registered email (any case) is 409 EMAIL_ALREADY_REGISTERED', async () => {
    await signup({ email: 'a@x.io', password: 'correct horse' });
    const again = await signup({ email: 'A@X.IO', password: 'other password' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Email is already registered', code: 'EMAIL_ALREADY_REGISTERED' });
    expect(cookiesOf(again).svc_session).toBeUndefined();
    expect(await rows('users')).toHaveLength(1);
  });

  it('login: 200 with the user body and a fresh session cookie; wrong password and unknown email look the same', async () => {
    await signup({ email: 'a@x.io', password: 'correct horse' });
    const ok = await login('A@x.io', 'correct horse');
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe('a@x.io');
    expect(cookiesOf(ok).svc_session.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Lax']));

    const wrong = await login('a@x.io', 'wrong horse');
    const unknown = await login('nobody@x.io', 'correct horse');
    for (const failed of [wrong, unknown]) {
      expect(failed.status).toBe(401);
      expect(failed.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
      expect(cookiesOf(failed).svc_session).toBeUndefined();
    }
  });

  it('GET /me and an application route behind CurrentUserGuard resolve the user; no cookie is 401', async () => {
    const cookie = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    expect((await me(cookie)).body.email).toBe('a@x.io');
    const profile = await request(t.server).get('/profile').set('Cookie', `svc_session=${cookie}`);
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe('a@x.io');

    for (const response of [
      await request(t.server).get('/auth/me'),
      await request(t.server).get('/profile'),
      await me('forged-token-value'),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('logout deletes the row, clears the cookie, and the replayed cookie is 401; logout is idempotent', async () => {
    const cookie = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    const out = await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookie}`);
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    const cleared = cookiesOf(out).svc_session;
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Path=/', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'HttpOnly']));
    expect(await rows('sessions')).toHaveLength(0);
    expect((await me(cookie)).status).toBe(401);
    expect((await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookie}`)).status).toBe(204);
    expect((await request(t.server).post('/auth/logout')).status).toBe(204);
  });

  it('every login issues a new session id and deletes the presented one (no fixation)', async () => {
    const first = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    t.clock.advance(1000);
    const second = cookiesOf(await login('a@x.io', 'correct horse', first)).svc_session.value;
    expect(second).not.toBe(first);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(200);
    expect(await rows('sessions')).toHaveLength(1);
  });

  it('keeps at most session.maxPerUser sessions, evicting the oldest', async () => {
    const first = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    const later: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      later.push(cookiesOf(await login('a@x.io', 'correct horse')).svc_session.value);
    }
    expect(await rows('sessions')).toHaveLength(3);
    expect((await me(first)).status).toBe(401);
    for (const cookie of later) expect((await me(cookie)).status).toBe(200);
  });

  it('an expired session is 401 (session.expireDays)', async () => {
    const cookie = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    t.clock.advance(7 * DAY - 1000);
    expect((await me(cookie)).status).toBe(200);
    t.clock.advance(1000);
    const expired = await me(cookie);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('UNAUTHENTICATED');
  });

  it('an inactive user: existing session 401, login with the right password 403, wrong password 401', async () => {
    const cookie = cookiesOf(await signup({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'}`);
    expect((await me(cookie)).status).toBe(401);
    const refused = await login('a@x.io', 'correct horse');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('USER_INACTIVE');
    expect(cookiesOf(refused).svc_session).toBeUndefined();
    expect((await login('a@x.io', 'wrong horse')).status).toBe(401);
  });

  behaviourIt('loginOnSignup false creates the user without a session', async () => {
    await withOwnApp({ options: { session: { loginOnSignup: false } } }, async () => {
      const response = await signup({ email: 'a@x.io', password: 'correct horse' });
      expect(response.status).toBe(201);
      expect(cookiesOf(response).svc_session).toBeUndefined();
      expect(await rows('sessions')).toHaveLength(0);
    });
  });

  behaviourIt('a hash made with a lower cost is upgraded at login (the production hasher, at its real costs)', async () => {
    await withOwnApp({ options: { password: { bcryptCost: 11 } }, passwordHasher: 'configured' }, async () => {
      await signup({ email: 'a@x.io', password: 'correct horse' });
      await t.dataSource.query(`UPDATE users SET password_hash = ${engine === 'postgres' ? '$1' : '?'}`, [await bcrypt.hash('correct horse', 10)]);
      expect((await login('a@x.io', 'correct horse')).status).toBe(200);
      const upgraded = (await rows('users'))[0].password_hash as string;
      expect(upgraded).toMatch(/^\$2b\$11\$/);
      expect(await bcrypt.compare('correct horse', upgraded)).toBe(true);
    });
  });
});

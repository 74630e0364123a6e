import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { claimsOf, createJwtApp, headerOf, type JwtApp, PASSWORD, tokensOf } from '../jwt-kit.js';

const ENGINES = await availableEngines();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(ENGINES)('jwt tokens on %s', (engine) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine });
  });
  afterAll(() => t.close());

  behaviourIt('signup answers 201 with the token body and sets the refresh cookie (docs/guides/jwt.md)', async () => {
    const response = await t.signup('Alice@Example.IO', { displayName: 'Alice' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(response.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
    expect(response.headers['cache-control']).toBe('no-store');

    const cookie = cookiesOf(response).svc_refresh;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Max-Age=604800', 'Path=/auth', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(cookiesOf(response).svc_session).toBeUndefined();

    const [row] = await t.dataSource.query('SELECT * FROM refresh_tokens');
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(cookie.value);
    expect(row.consumed_at).toBeNull();
    expect(row.revoked_at).toBeNull();
  });

  behaviourIt('the access token carries the documented claims (docs/decisions/0012-access-tokens-jwt.md), signed HS256', async () => {
    const { access } = tokensOf(await t.signup('claims@x.io'));
    expect(headerOf(access)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = claimsOf(access);
    expect(Object.keys(claims).sort()).toEqual(['auth_time', 'exp', 'iat', 'jti', 'sid', 'sub', 'typ']);
    // The sign-in of the family (docs/guides/account-security.md): the signup, now.
    expect(claims.auth_time).toBe(claims.iat);
    expect(claims).toMatchObject({ typ: 'access', sub: expect.stringMatching(UUID), sid: expect.stringMatching(UUID), jti: expect.stringMatching(UUID) });
    expect(claims.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect((claims.exp as number) - (claims.iat as number)).toBe(600);
    const rows: { family_id: string; user_id: string }[] = await t.dataSource.query('SELECT family_id, user_id FROM refresh_tokens');
    expect(rows.filter((row) => row.user_id === claims.sub).map((row) => row.family_id)).toEqual([claims.sid]);
  });

  behaviourIt('login answers 200 with a fresh pair in a new family and fires svc.login.after with method password and credential jwt', async () => {
    const first = tokensOf(await t.signup('bob@x.io'));
    const response = await t.login('  BOB@x.io ');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
    const second = tokensOf(response);
    expect(second.refresh).not.toBe(first.refresh);
    expect(claimsOf(second.access).sid).not.toBe(claimsOf(first.access).sid);
    const [event] = (await t.events.waitFor(AuthEvent.LoginAfter)).filter((e) => (e.user as { email: string }).email === 'bob@x.io');
    expect(event).toEqual({ user: { id: second.userId, email: 'bob@x.io', displayName: null, plan: 'free' }, strategy: 'jwt', method: 'password', credential: 'jwt' });
  });

  behaviourIt('login with the refresh cookie of an earlier login replaces that family', async () => {
    const first = tokensOf(await t.signup('carol@x.io'));
    const second = tokensOf(await t.login('carol@x.io', PASSWORD, first.refresh));
    expect((await t.me(first.access)).status).toBe(401);
    expect((await t.refresh(first.refresh)).status).toBe(401);
    expect((await t.me(second.access)).status).toBe(200);
  });

  behaviourIt('wrong password and inactive user: no credential', async () => {
    await t.signup('dave@x.io');
    const wrong = await t.login('dave@x.io', 'wrong password!');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    expect(cookiesOf(wrong).svc_refresh).toBeUndefined();
    await t.dataSource.query(`UPDATE users SET is_active = false WHERE email = 'dave@x.io'`);
    const inactive = await t.login('dave@x.io');
    expect(inactive.status).toBe(403);
    expect(inactive.body.code).toBe('USER_INACTIVE');
    expect(cookiesOf(inactive).svc_refresh).toBeUndefined();
  });

  behaviourIt('GET /me and the application route GET /profile resolve the bearer token', async () => {
    const { access, userId } = tokensOf(await t.signup('erin@x.io', { displayName: 'Erin' }));
    const body = { id: userId, email: 'erin@x.io', displayName: 'Erin', plan: 'free' };
    const me = await t.me(access);
    expect(me.status).toBe(200);
    expect(me.body).toEqual(body);
    const profile = await t.me(access, '/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual(body);
    // RFC 9110 §11.1: the scheme is case-insensitive.
    expect((await t.me(access).set('Authorization', `bearer ${access}`)).status).toBe(200);
  });

  it('resolves the user and its family in one query, and none for a token that fails verification', async () => {
    const { access } = tokensOf(await t.signup('one-query@x.io'));
    const logger = t.dataSource.logger;
    const original = logger.logQuery;
    const queries: string[] = [];
    logger.logQuery = (query: string) => void queries.push(query);
    try {
      expect((await t.me(access, '/profile')).status).toBe(200);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatch(/EXISTS/);
      queries.length = 0;
      expect((await t.me(`${access.slice(0, -3)}abc`, '/profile')).status).toBe(401);
      expect(queries).toHaveLength(0);
    } finally {
      logger.logQuery = original;
    }
  });

  behaviourIt('without a bearer header: 401 UNAUTHENTICATED with WWW-Authenticate: Bearer; the query string and body are ignored', async () => {
    const { access, refresh } = tokensOf(await t.signup('frank@x.io'));
    for (const path of ['/auth/me', '/profile']) {
      const bare = await request(t.url).get(path);
      expect(bare.status).toBe(401);
      expect(bare.headers['www-authenticate']).toBe('Bearer');
      expect(bare.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'UNAUTHENTICATED' });
      for (const query of [`access_token=${access}`, `token=${access}`, `authorization=Bearer%20${access}`]) {
        const viaQuery = await request(t.url).get(`${path}?${query}`);
        expect(viaQuery.status).toBe(401);
        expect(viaQuery.headers['www-authenticate']).toBe('Bearer');
      }
      const viaCookie = await request(t.url).get(path).set('Cookie', [`svc_refresh=${refresh}`, `access_token=${access}`]);
      expect(viaCookie.status).toBe(401);
    }
    for (const header of [`Basic ${access}`, `Bearer`, `Bearer ${access} extra`, `Token ${access}`, access]) {
      const response = await request(t.url).get('/profile').set('Authorization', header);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });

  behaviourIt('the application route still serves without a credential where it is not guarded', async () => {
    expect((await request(t.url).get('/public')).body).toEqual({ ok: true });
  });
});

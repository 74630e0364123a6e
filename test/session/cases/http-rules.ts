import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL, cookiesOf, createTestApp, type TestApp } from '../../support/test-app.js';

describe.each(BEHAVIOUR_ENGINES)('HTTP rules of the auth routes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine, options: { trustedOrigins: ['https://admin.app.test'] } });
  });
  afterAll(() => t.close());

  it('refuses a body that is not application/json with 415 before any work', async () => {
    const response = await request(t.server).post('/auth/signup').type('form').send('email=a@x.io&password=correct+horse');
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ statusCode: 415, error: 'Unsupported Media Type', message: 'Request body must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await request(t.server).post('/auth/login').set('Content-Type', 'text/plain').send('{}')).status).toBe(415);
    expect(await t.dataSource.query('SELECT * FROM users')).toHaveLength(0);
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const response = await request(t.server).post('/auth/login').set('Content-Type', 'application/json').send('{"email": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Request body is not valid JSON', code: 'MALFORMED_JSON' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers a body over 16 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = { email: 'a@x.io', password: 'correct horse', displayName: 'x'.repeat(17 * 1024) };
    const response = await request(t.server).post('/auth/signup').send(big);
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
    const huge = await request(t.server).post('/auth/signup').send({ ...big, displayName: 'x'.repeat(200 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a JSON body that is not an object is a validation error', async () => {
    const response = await request(t.server).post('/auth/login').set('Content-Type', 'application/json').send('["a"]');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });

  it('sets Cache-Control: no-store and Referrer-Policy: no-referrer on every auth response', async () => {
    for (const response of [
      await request(t.server).post('/auth/signup').send({ email: 'h@x.io', password: 'correct horse' }),
      await request(t.server).post('/auth/login').send({ email: 'h@x.io', password: 'bad password' }),
      await request(t.server).get('/auth/me'),
      await request(t.server).post('/auth/logout'),
    ]) {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('leaves the application routes alone (no auth headers, default errors)', async () => {
    const response = await request(t.server).get('/public');
    expect(response.status).toBe(200);
    expect(response.headers['referrer-policy']).toBeUndefined();
  });

  describe('cross-site requests authenticated by the session cookie (docs/decisions/0023-cross-site-requests.md)', () => {
    let cookie: string;
    beforeAll(async () => {
      const signup = await request(t.server).post('/auth/signup').send({ email: 'csrf@x.io', password: 'correct horse' });
      cookie = cookiesOf(signup).svc_session.value;
    });

    it('refuses a foreign Origin with 403 CSRF_REJECTED, on library and application routes', async () => {
      const logout = await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookie}`).set('Origin', 'https://evil.test');
      expect(logout.status).toBe(403);
      expect(logout.body.code).toBe('CSRF_REJECTED');
      const nullOrigin = await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookie}`).set('Origin', 'null');
      expect(nullOrigin.status).toBe(403);
      const login = await request(t.server)
        .post('/auth/login')
        .set('Cookie', `svc_session=${cookie}`)
        .set('Origin', 'https://evil.test')
        .send({ email: 'csrf@x.io', password: 'correct horse' });
      expect(login.status).toBe(403);
      expect((await request(t.server).get('/auth/me').set('Cookie', `svc_session=${cookie}`)).status).toBe(200);
    });

    it('refuses Sec-Fetch-Site: cross-site when Origin is absent', async () => {
      const response = await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookie}`).set('Sec-Fetch-Site', 'cross-site');
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('CSRF_REJECTED');
    });

    it('lets the base URL origin, trusted origins, same-site fetches and non-browser clients through', async () => {
      const sameOrigin = await request(t.server).get('/profile').set('Cookie', `svc_session=${cookie}`).set('Origin', BASE_URL);
      expect(sameOrigin.status).toBe(200);
      const login = (extra: Record<string, string>) =>
        request(t.server).post('/auth/login').set('Cookie', `svc_session=${cookie}`).set(extra).send({ email: 'csrf@x.io', password: 'correct horse' });
      const trusted = await login({ Origin: 'https://admin.app.test' });
      expect(trusted.status).toBe(200);
      cookie = cookiesOf(trusted).svc_session.value;
      const sameSite = await login({ 'Sec-Fetch-Site': 'same-origin' });
      expect(sameSite.status).toBe(200);
      cookie = cookiesOf(sameSite).svc_session.value;
      const noHeaders = await login({});
      expect(noHeaders.status).toBe(200);
    });

    it('does not check requests that carry no auth cookie', async () => {
      const response = await request(t.server).post('/auth/login').set('Origin', 'https://evil.test').send({ email: 'csrf@x.io', password: 'wrong horse' });
      expect(response.status).toBe(401);
    });
  });
});

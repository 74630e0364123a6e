import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApp } from '../../support/test-app.js';

/**
 * Nest's global prefix would move svc's routes off the prefix its request rules guard (docs/decisions/0005-http-rules.md): the application does not start; excluded from it, they work as usual.
 */
describe("svc's routes and Nest's global prefix", () => {
  it('a global prefix covering them stops the application, saying how to exclude them', async () => {
    await expect(createTestApp({ engine: 'sqlite', configure: (app) => app.setGlobalPrefix('api') })).rejects.toThrow(
      "svc: its routes are not under /auth, where its request rules are enforced: a global prefix or URI versioning moved them. Exclude them, e.g. app.setGlobalPrefix('api', { exclude: ['auth/{*path}'] })",
    );
  });

  it('excluded from it, they stay under /auth with every rule, while the application routes get the prefix', async () => {
    const t = await createTestApp({ engine: 'sqlite', configure: (app) => app.setGlobalPrefix('api', { exclude: ['auth/{*path}'] }) });
    try {
      const form = await request(t.server).post('/auth/login').set('Content-Type', 'application/x-www-form-urlencoded').send('email=ada@x.io&password=x');
      expect([form.status, form.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const signup = await request(t.server).post('/auth/signup').send({ email: 'ada@x.io', password: 'correct horse' });
      expect(signup.status).toBe(201);
      expect((await request(t.server).get('/api/profile').set('Cookie', signup.headers['set-cookie'])).body).toMatchObject({ email: 'ada@x.io' });
      expect((await request(t.server).get('/api/auth/me')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

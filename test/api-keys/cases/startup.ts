import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AuthConfigError } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { createApiKeyApp } from '../api-keys-kit.js';

// docs/reference/options.md, `apiKeys`: the section's rules, and the module without it.
describe('the apiKeys section at startup', () => {
  it.each([
    [{ prefix: '' }, /^apiKeys\.prefix must be 1 to 32 letters/],
    [{ prefix: 'svc.' }, /^apiKeys\.prefix/],
    [{ prefix: '1svc_' }, /^apiKeys\.prefix/],
    [{ prefix: 'svc key' }, /^apiKeys\.prefix/],
    [{ prefix: 'a'.repeat(33) }, /^apiKeys\.prefix/],
    [{ prefix: 7 }, /^apiKeys\.prefix/],
    [{ maxPerUser: 0 }, /^apiKeys\.maxPerUser must be between 1 and 1000/],
    [{ maxPerUser: 1001 }, /^apiKeys\.maxPerUser/],
    [{ maxPerUser: 2.5 }, /^apiKeys\.maxPerUser must be an integer/],
    ['on', /^apiKeys must be an object/],
  ])('refuses apiKeys %j', async (section, message) => {
    const started = createApiKeyApp('sqlite', 'session', { apiKeys: section as never });
    await expect(started).rejects.toThrow(AuthConfigError);
    await expect(started).rejects.toThrow(message);
  });

  it('takes another prefix: keys start with it and only it is recognised', async () => {
    const t = await createApiKeyApp('sqlite', 'session', { apiKeys: { prefix: 'acme-' } });
    try {
      const alice = await t.user('alice@example.io', ['owner']);
      const created = await t.createKey(alice);
      expect(created.key).toMatch(/^acme-[A-Za-z0-9_-]{43}$/);
      await t.withKey(created.key, 'get', '/profile').expect(200);
      // svc_ is nothing special here: the session credential finds no cookie.
      await t.withKey(`svc_${created.key.slice(5)}`, 'get', '/profile').expect(401);
    } finally {
      await t.close();
    }
  });
});

describe('without the apiKeys section', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', options: { credential: 'session', secret: TEST_SECRET } as never });
  });
  afterAll(() => t.close());

  it('has no /api-keys routes (404 NOT_FOUND) and gives a Bearer svc_ header no meaning', async () => {
    const { headers } = await signIn(t.app, 'alice@example.io');
    for (const [method, path] of [['get', '/auth/api-keys'], ['post', '/auth/api-keys'], ['delete', '/auth/api-keys/00000000-0000-4000-8000-000000000000']] as const) {
      expect((await request(t.server)[method](path).set(headers).expect(404)).body.code).toBe('NOT_FOUND');
    }
    const key = `svc_${'A'.repeat(43)}`;
    // The session cookie beside it still authenticates, and library routes still serve the request.
    await request(t.server).get('/profile').set(headers).set('Authorization', `Bearer ${key}`).expect(200);
    await request(t.server).get('/auth/me').set('Authorization', `Bearer ${key}`).expect(401);
    await request(t.server).post('/auth/logout').set('Authorization', `Bearer ${key}`).expect(204);
    expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM api_keys')).toEqual([{ n: 0 }]);
  });
});

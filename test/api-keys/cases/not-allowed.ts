import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { authRoutesOf } from '#svc/auth/openapi';
import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ApiKeyApp, createApiKeyApp, type Held, UNKNOWN_ID } from '../api-keys-kit.js';

// docs/decisions/0032-api-keys.md: an API key is accepted by one library route, GET /me; every other
// route under the prefix answers 403 API_KEY_NOT_ALLOWED, decided before anything else on the route.
// Behaviour: SQLite, with each credential.
const cases = credentialCases(BEHAVIOUR_ENGINES);
const gh = { name: 'gh', clientId: 'c', clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3', authorizationUrl: 'https://gh.test/a', tokenUrl: 'https://gh.test/t', userinfoUrl: 'https://gh.test/u', mapProfileToUser: () => null };
const op = { name: 'op', issuer: 'https://op.test', clientId: 'c', clientSecret: '1ae3f2b8c4d5e6f708192a3b4c5d6e7f8091a2b3' };

/** Every part mounted, and a limiter that would refuse the second request to a route if it counted the first. */
const EVERY_PART = { baseUrl: 'https://app.test', emailVerification: {}, mfa: { issuer: 'svc' }, passkeys: {}, password: {}, oauth2: { providers: [gh] }, oidc: { providers: [op] }, rateLimit: { max: 1 } };

/** A route's path with its parameters filled: a provider of its method, else an id no row has. */
function concrete(path: string): string {
  return path.replace(/^\/oauth2\/\{provider\}/, '/oauth2/gh').replace(/^\/oidc\/\{provider\}/, '/oidc/op').replace(/\{role\}/g, 'member').replace(/\{\w+\}/g, UNKNOWN_ID);
}

describe.each(cases)('API_KEY_NOT_ALLOWED on %s, %s credential', (engine, credential) => {
  let t: ApiKeyApp;
  let alice: Held;
  let key: string;
  let routes: { method: 'get' | 'post' | 'patch' | 'delete'; path: string }[];

  // One application, one user and one key for the file: the limiter's counts would outlive a reset.
  beforeAll(async () => {
    t = await createApiKeyApp(engine, credential, EVERY_PART as never);
    routes = authRoutesOf(t.app).filter((route) => !(route.method === 'get' && route.path === '/me'));
    alice = await t.user('alice@example.io', ['admin', 'owner']);
    key = (await t.createKey(alice, { name: 'ci', scopes: ['users:*', 'notes:*'] })).key;
  });
  afterAll(() => t.close());

  it('mounts every family of library routes (so the next test covers them)', () => {
    const families = new Set(routes.map((route) => route.path.split('/')[1]));
    for (const family of ['signup', 'login', 'logout', 'sessions', 'api-keys', 'admin', 'passkeys', 'mfa', 'oauth2', 'oidc', 'accounts', 'change-password', 'verify-email']) expect(families).toContain(family);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answers 403 API_KEY_NOT_ALLOWED on every library route but GET /me, before body validation, hooks, rate limits and the credential check', async () => {
    const refused: string[] = [];
    for (const route of routes) {
      // Twice (the limiter allows one request), with a body no schema accepts, and with the owner's cookie beside the key.
      for (let i = 0; i < 2; i++) {
        const test = t.withKey(key, route.method, `/auth${concrete(route.path)}`).set('Cookie', alice.headers.Cookie ?? '');
        const response = await (route.method === 'get' ? test : test.send({ unknownField: 1 }));
        if (response.status !== 403 || response.body.code !== 'API_KEY_NOT_ALLOWED') refused.push(`${route.method.toUpperCase()} ${route.path}: ${response.status} ${response.body.code}`);
      }
    }
    expect(refused).toEqual([]);
    // An unknown key too: the prefix decides, before any lookup.
    expect((await t.withKey('svc_unknown', 'post', '/auth/logout').expect(403)).body.code).toBe('API_KEY_NOT_ALLOWED');
    expect((await t.withKey('svc_unknown', 'get', '/auth/api-keys').expect(403)).body.code).toBe('API_KEY_NOT_ALLOWED');
    expect((await t.withKey(`svc_${'!'.repeat(4000)}`, 'post', '/auth/logout').expect(403)).body.code).toBe('API_KEY_NOT_ALLOWED');
    // Nothing the routes would do happened: the key is still the only one, the user still signed in.
    expect(await t.rows()).toHaveLength(1);
    await t.call(alice, 'get', '/me').expect(200);
  });

  it('serves GET /me to the key', async () => {
    expect((await t.withKey(key, 'get', '/auth/me').expect(200)).body.id).toBe(alice.userId);
  });
});

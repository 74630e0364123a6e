import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { availableEngines, BEHAVIOUR_ENGINES, behaviourOnly } from '../../support/engines.js';
import { type ApiKeyApp, createApiKeyApp, type Held } from '../api-keys-kit.js';

// docs/guides/machine-access.md, "Calling with a key": a key on the application's routes and /me, with each credential.
// Behaviour, on SQLite, but for one flow through the store's lookup of a key (its own statement, the
// key's row, its owner and the owner's roles in one query), on every engine.
const cases = credentialCases(await availableEngines());

describe.each(cases)('API key authentication on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: ApiKeyApp;
  let alice: Held;

  beforeAll(async () => {
    t = await createApiKeyApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    alice = await t.user('alice@example.io', ['owner']);
  });
  afterAll(() => t.close());

  it("resolves the key's owner on a CurrentUserGuard route and on /me: request.user.apiKey, permissions = scopes within the owner's", async () => {
    const { id, key } = await t.createKey(alice, { name: 'ci', scopes: ['notes:read', 'reports:read'] });
    const profile = (await t.withKey(key, 'get', '/profile').expect(200)).body;
    expect(profile).toMatchObject({ id: alice.userId, email: 'alice@example.io', roles: ['owner'], permissions: ['notes:read', 'reports:read'], apiKey: { id, scopes: ['notes:read', 'reports:read'] } });
    expect((await t.withKey(key, 'get', '/auth/me').expect(200)).body).toEqual(profile);
    // The user's own credential is unchanged: all of the roles' permissions, no apiKey.
    const own = (await t.call(alice, 'get', '/me').expect(200)).body;
    expect(own.permissions).toEqual(['notes:*', 'reports:read']);
    expect(own.apiKey).toBeUndefined();
  });

  behaviourIt('decides @Permissions on the intersection, and a key holds no role for @Roles', async () => {
    const scoped = await t.createKey(alice, { name: 'read', scopes: ['notes:read'] });
    await t.withKey(scoped.key, 'get', '/notes/read').expect(200);
    expect((await t.withKey(scoped.key, 'get', '/notes/delete').expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.withKey(scoped.key, 'get', '/notes/owners').expect(403)).body.code).toBe('PERMISSION_DENIED');
    const wide = await t.createKey(alice, { name: 'all', scopes: ['notes:*'] });
    await t.withKey(wide.key, 'get', '/notes/delete').expect(200);
    const none = await t.createKey(alice, { name: 'none' });
    expect((await t.withKey(none.key, 'get', '/profile').expect(200)).body.permissions).toEqual([]);
    await t.withKey(none.key, 'get', '/notes/read').expect(403);
    // The owner's own session passes all three.
    for (const path of ['/notes/read', '/notes/delete', '/notes/owners']) await t.callApp(alice, 'get', path).expect(200);
  });

  behaviourIt("follows the owner's permissions: a role revoked narrows the key at the next request, a wildcard scope narrows to what remains", async () => {
    const { key } = await t.createKey(alice, { name: 'wide', scopes: ['notes:*'] });
    await t.auth.grantRole(alice.userId, 'reader');
    await t.auth.revokeRole(alice.userId, 'owner');
    const profile = (await t.withKey(key, 'get', '/profile').expect(200)).body;
    expect(profile.permissions).toEqual(['notes:read']);
    await t.withKey(key, 'get', '/notes/read').expect(200);
    await t.withKey(key, 'get', '/notes/delete').expect(403);
  });

  behaviourIt('refuses an unknown or malformed key with the prefix (401 UNAUTHENTICATED, WWW-Authenticate: Bearer), whatever cookie comes with it', async () => {
    const { key } = await t.createKey(alice);
    for (const presented of [`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, 'svc_', 'svc_short', `${key}x`, `${key}!`, `svc_${'A'.repeat(4000)}`]) {
      const refused = await t.withKey(presented, 'get', '/profile').expect(401);
      expect(refused.body.code).toBe('UNAUTHENTICATED');
      expect(refused.headers['www-authenticate']).toBe('Bearer');
    }
    // A key decides the request: the owner's cookie beside a wrong key does not rescue it.
    await t.withKey('svc_wrong', 'get', '/profile').set('Cookie', alice.headers.Cookie ?? '').expect(401);
    // The scheme is case-insensitive (RFC 9110 §11.1).
    await t.withKey(key, 'get', '/profile').set('Authorization', `bearer ${key}`).expect(200);
  });

  behaviourIt('refuses the key of an owner deactivated (401 at the next request) and accepts it again once reactivated', async () => {
    const { key } = await t.createKey(alice);
    await t.withKey(key, 'get', '/profile').expect(200);
    await t.auth.deactivateUser(alice.userId);
    expect((await t.withKey(key, 'get', '/profile').expect(401)).body.code).toBe('UNAUTHENTICATED');
    await t.withKey(key, 'get', '/auth/me').expect(401);
    await t.auth.activateUser(alice.userId);
    await t.withKey(key, 'get', '/profile').expect(200);
  });

  behaviourIt('refuses the key of an owner deleted (401), its rows gone with the user', async () => {
    const { key } = await t.createKey(alice);
    await t.auth.deleteUser(alice.userId);
    expect((await t.withKey(key, 'get', '/profile').expect(401)).body.code).toBe('UNAUTHENTICATED');
    expect(await t.rows()).toEqual([]);
  });

  behaviourIt('needs no origin check: a key is never sent by the browser on its own', async () => {
    const { key } = await t.createKey(alice);
    await t.withKey(key, 'get', '/profile').set('Origin', 'https://evil.test').set('Sec-Fetch-Site', 'cross-site').expect(200);
  });
});

describe.each(BEHAVIOUR_ENGINES)('API keys under the global guard on %s', (engine) => {
  let t: ApiKeyApp;

  beforeAll(async () => {
    t = await createApiKeyApp(engine, 'session', {}, undefined, undefined, true);
  });
  afterAll(() => t.close());

  it('authenticates every guarded route of the application with a key, and refuses a revoked one', async () => {
    const alice = await t.user('alice@example.io', ['reader']);
    const { id, key } = await t.createKey(alice, { name: 'ci', scopes: ['notes:read'] });
    expect((await t.withKey(key, 'get', '/profile').expect(200)).body.apiKey).toEqual({ id, scopes: ['notes:read'] });
    await t.withKey(key, 'get', '/notes/read').expect(200);
    await t.call(alice, 'delete', `/api-keys/${id}`).expect(204);
    await t.withKey(key, 'get', '/notes/read').expect(401);
    await t.withKey(key, 'get', '/public').expect(401);
  });
});

describe.each(BEHAVIOUR_ENGINES)('API keys beside the principal cache on %s', (engine) => {
  let t: ApiKeyApp;

  beforeAll(async () => {
    t = await createApiKeyApp(engine, 'session', { principalCache: { invalidation: 'local' } });
  });
  afterAll(() => t.close());

  it('never serves a key from the cache: revocation and deactivation hold at the next request', async () => {
    const alice = await t.user('alice@example.io', ['owner']);
    const first = await t.createKey(alice);
    const second = await t.createKey(alice, { name: 'other' });
    for (let i = 0; i < 3; i++) await t.withKey(first.key, 'get', '/profile').expect(200);
    await t.call(alice, 'delete', `/api-keys/${first.id}`).expect(204);
    await t.withKey(first.key, 'get', '/profile').expect(401);
    for (let i = 0; i < 3; i++) await t.withKey(second.key, 'get', '/auth/me').expect(200);
    await t.auth.deactivateUser(alice.userId);
    await t.withKey(second.key, 'get', '/auth/me').expect(401);
  });
});

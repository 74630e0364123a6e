import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { AuthEvent } from '#svc/auth';
import { credentialCases } from '../../support/credential-cases.js';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { type ApiKeyApp, createApiKeyApp, DAY, type Held, MINUTE, UNKNOWN_ID } from '../api-keys-kit.js';

// docs/guides/machine-access.md, "API keys": creating, listing and revoking keys, with each credential.
// Behaviour, on SQLite, but for the limit: the store's count of live keys (its own statement, comparing
// expires_at with the clock's time as the engine stores it) runs on every engine.
const cases = credentialCases(await availableEngines());
const KEY = /^svc_[A-Za-z0-9_-]{43}$/;

describe.each(cases)('API keys on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: ApiKeyApp;
  let alice: Held;

  beforeAll(async () => {
    t = await createApiKeyApp(engine, credential, { apiKeys: { maxPerUser: 3 } });
  });
  beforeEach(async () => {
    await t.reset();
    alice = await t.user('alice@example.io', ['owner']);
  });
  afterAll(() => t.close());

  behaviourIt('creates a key (201): the prefix and 256 random bits, shown once; the row holds its SHA-256 and its start, never the key', async () => {
    const created = await t.createKey(alice, { name: 'ci', scopes: ['notes:read', 'reports:read', 'notes:read'] });
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'scopes']);
    expect(created).toMatchObject({ name: 'ci', scopes: ['notes:read', 'reports:read'], expiresAt: null, createdAt: t.clock.now().toISOString() });
    expect(created.key).toMatch(KEY);
    expect(Buffer.from(created.key.slice(4), 'base64url')).toHaveLength(32);
    const [row] = await t.rows();
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(row.start).toBe(created.key.slice(0, 8));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(4));
    // Listed without the key: id, name, scopes, the dates and its start.
    const listed = (await t.call(alice, 'get', '/api-keys').expect(200)).body;
    expect(listed).toEqual([{ id: created.id, name: 'ci', scopes: ['notes:read', 'reports:read'], createdAt: created.createdAt, expiresAt: null, lastUsedAt: null, start: created.key.slice(0, 8) }]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    // Two keys never share their random part.
    expect((await t.createKey(alice)).key).not.toBe(created.key);
  });

  behaviourIt('fires svc.api_key.created and svc.api_key.revoked with the user and the key facts, never the key or its hash', async () => {
    const created = await t.createKey(alice, { name: 'deploy', scopes: ['notes:read'] });
    await t.call(alice, 'delete', `/api-keys/${created.id}`).expect(204);
    const [made] = await t.events.waitFor(AuthEvent.ApiKeyCreated);
    const [revoked] = await t.events.waitFor(AuthEvent.ApiKeyRevoked);
    for (const payload of [made, revoked]) {
      expect(payload.user).toMatchObject({ id: alice.userId, email: 'alice@example.io' });
      expect(payload.apiKey).toEqual({ id: created.id, name: 'deploy', scopes: ['notes:read'], createdAt: new Date(created.createdAt), expiresAt: null });
      const text = JSON.stringify(payload);
      expect(text).not.toContain(created.key.slice(4));
      expect(text).not.toContain(createHash('sha256').update(created.key).digest('hex'));
    }
  });

  behaviourIt('tells the owner of the new key by the security notice api_key_created, which carries no key', async () => {
    const created = await t.createKey(alice, { name: 'notice' });
    const [notice] = await t.events.waitFor(AuthEvent.SecurityNotice);
    expect(notice).toMatchObject({ notice: 'api_key_created', user: { id: alice.userId, email: 'alice@example.io' } });
    expect(JSON.stringify(notice)).not.toContain(created.key.slice(4));
  });

  behaviourIt('refuses scopes the user does not hold (400 API_KEY_SCOPE_INVALID); <resource>:* covers its actions', async () => {
    const reader = await t.user('reader@example.io', ['reader']);
    expect((await t.call(reader, 'post', '/api-keys', { name: 'x', scopes: ['notes:delete'] }).expect(400)).body.code).toBe('API_KEY_SCOPE_INVALID');
    expect((await t.call(reader, 'post', '/api-keys', { name: 'x', scopes: ['notes:*'] }).expect(400)).body.code).toBe('API_KEY_SCOPE_INVALID');
    expect((await t.call(reader, 'post', '/api-keys', { name: 'x', scopes: ['users:read'] }).expect(400)).body.code).toBe('API_KEY_SCOPE_INVALID');
    await t.call(reader, 'post', '/api-keys', { name: 'x', scopes: ['notes:read'] }).expect(201);
    // notes:* grants notes:delete, so its holder may give a key notes:delete, or notes:* itself.
    expect((await t.createKey(alice, { name: 'y', scopes: ['notes:delete', 'notes:*'] })).scopes).toEqual(['notes:*', 'notes:delete']);
    expect(await t.rows()).toHaveLength(2);
  });

  behaviourOnly(engine, it.each([
    [{}],
    [{ name: '' }],
    [{ name: 'x'.repeat(65) }],
    [{ name: 'x', scopes: 'notes:read' }],
    [{ name: 'x', scopes: ['notes'] }],
    [{ name: 'x', scopes: [1] }],
    [{ name: 'x', expiresInDays: 0 }],
    [{ name: 'x', expiresInDays: 366 }],
    [{ name: 'x', expiresInDays: 1.5 }],
    [{ name: 'x', expiresInDays: '30' }],
    [{ name: 'x', key: 'svc_mine' }],
  ]))('refuses the body %j (400 VALIDATION_FAILED)', async (body) => {
    expect((await t.call(alice, 'post', '/api-keys', body).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect(await t.rows()).toEqual([]);
  });

  behaviourIt('expires a key after expiresInDays on the clock: 401 from then on, still listed with its expiresAt', async () => {
    const created = await t.createKey(alice, { name: 'short', expiresInDays: 1 });
    expect(created.expiresAt).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());
    t.clock.advance(DAY - 1);
    await t.withKey(created.key, 'get', '/profile').expect(200);
    t.clock.advance(1);
    const refused = await t.withKey(created.key, 'get', '/profile').expect(401);
    expect(refused.body.code).toBe('UNAUTHENTICATED');
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    // A day later the jwt access token has ended too: sign in again.
    alice = await t.user('alice@example.io');
    expect((await t.call(alice, 'get', '/api-keys').expect(200)).body.map((key: { id: string }) => key.id)).toEqual([created.id]);
  });

  behaviourIt('revokes a key (204): 401 at the next request; another user cannot see or revoke it (404), nor can anyone twice', async () => {
    const created = await t.createKey(alice);
    await t.withKey(created.key, 'get', '/profile').expect(200);
    const bob = await t.user('bob@example.io', ['owner']);
    expect((await t.call(bob, 'delete', `/api-keys/${created.id}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.call(bob, 'get', '/api-keys').expect(200)).body).toEqual([]);
    await t.withKey(created.key, 'get', '/profile').expect(200);
    await t.call(alice, 'delete', `/api-keys/${created.id}`).expect(204);
    expect((await t.withKey(created.key, 'get', '/profile').expect(401)).body.code).toBe('UNAUTHENTICATED');
    expect((await t.withKey(created.key, 'get', '/auth/me').expect(401)).body.code).toBe('UNAUTHENTICATED');
    await t.call(alice, 'delete', `/api-keys/${created.id}`).expect(404);
    await t.call(alice, 'delete', `/api-keys/${UNKNOWN_ID}`).expect(404);
    await t.call(alice, 'delete', '/api-keys/not-a-uuid').expect(404);
    expect((await t.call(alice, 'get', '/api-keys').expect(200)).body).toEqual([]);
    expect((await t.rows())[0].revoked_at).not.toBeNull();
  });

  it('allows maxPerUser live keys (409 API_KEY_LIMIT past them); revoked and expired keys do not count', async () => {
    await t.createKey(alice, { name: 'a', expiresInDays: 1 });
    t.clock.advance(1000);
    const second = await t.createKey(alice, { name: 'b' });
    t.clock.advance(1000);
    await t.createKey(alice, { name: 'c' });
    expect((await t.call(alice, 'post', '/api-keys', { name: 'd' }).expect(409)).body.code).toBe('API_KEY_LIMIT');
    await t.call(alice, 'delete', `/api-keys/${second.id}`).expect(204);
    t.clock.advance(1000);
    await t.createKey(alice, { name: 'd' });
    await t.call(alice, 'post', '/api-keys', { name: 'e' }).expect(409);
    t.clock.advance(DAY);
    // A day later the jwt access token has ended too: sign in again.
    alice = await t.user('alice@example.io');
    await t.createKey(alice, { name: 'e' });
    expect((await t.call(alice, 'get', '/api-keys').expect(200)).body.map((key: { name: string }) => key.name)).toEqual(['e', 'd', 'c', 'a']);
    // Another user's keys are theirs to count.
    const bob = await t.user('bob@example.io', ['owner']);
    await t.createKey(bob);
  });

  behaviourIt('records lastUsedAt at most once a minute per key', async () => {
    const created = await t.createKey(alice);
    const lastUsed = async () => (await t.call(alice, 'get', '/api-keys').expect(200)).body[0].lastUsedAt;
    const start = t.clock.now().toISOString();
    await t.withKey(created.key, 'get', '/profile').expect(200);
    expect(await lastUsed()).toBe(start);
    t.clock.advance(MINUTE - 1);
    await t.withKey(created.key, 'get', '/auth/me').expect(200);
    expect(await lastUsed()).toBe(start);
    t.clock.advance(1);
    await t.withKey(created.key, 'get', '/profile').expect(200);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });

  behaviourIt('refuses creating and revoking keys while impersonating (403 IMPERSONATION_RESTRICTED); listing is allowed', async () => {
    const root = await t.user('root@example.io', ['admin']);
    const created = await t.createKey(alice);
    const started = await t.call(root, 'post', `/admin/users/${alice.userId}/impersonate`).expect(200);
    const acting: Held =
      credential === 'session'
        ? { ...alice, headers: { Cookie: `svc_session=${cookiesOf(started).svc_session.value}` } }
        : { ...alice, headers: { Authorization: `Bearer ${started.body.access_token}` } };
    expect((await t.call(acting, 'post', '/api-keys', { name: 'x' }).expect(403)).body.code).toBe('IMPERSONATION_RESTRICTED');
    expect((await t.call(acting, 'delete', `/api-keys/${created.id}`).expect(403)).body.code).toBe('IMPERSONATION_RESTRICTED');
    expect((await t.call(acting, 'get', '/api-keys').expect(200)).body).toHaveLength(1);
    expect(await t.rows()).toHaveLength(1);
  });

  behaviourIt('needs a credential: 401 UNAUTHENTICATED without one', async () => {
    expect((await t.call(null, 'post', '/api-keys', { name: 'x' }).expect(401)).body.code).toBe('UNAUTHENTICATED');
    await t.call(null, 'get', '/api-keys').expect(401);
    await t.call(null, 'delete', `/api-keys/${UNKNOWN_ID}`).expect(401);
  });
});

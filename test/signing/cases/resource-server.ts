import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { reserveLoopbackPort } from '../../support/listen.js';
import { BASE_URL } from '../../support/test-app.js';
import { claimsOf, createResourceServer, createSigningApp, forgeToken, MINUTE, privateKeyFor, type ResourceServer, type SigningApp } from '../signing-kit.js';

const POLICY = { roles: { admin: ['users:*', 'orders:read'], member: ['orders:read'] }, defaultRoles: ['member'] };

describe.each(BEHAVIOUR_ENGINES)("a second service with AuthGuard('svc-jwt') on %s", (engine) => {
  const privateKey = privateKeyFor('ES256');
  let t: SigningApp;
  let resource: ResourceServer;
  let held: { access: string; refresh: string; userId: string };
  beforeAll(async () => {
    t = await createSigningApp({ engine, signing: { algorithm: 'ES256', keys: [{ kid: 'es-1', privateKey }] }, options: { authorization: POLICY } as never });
    resource = await createResourceServer({ jwksUrl: `${t.url}/auth/jwks`, clock: t.clock });
    held = await t.signup('reader@x.io');
  });
  afterAll(async () => {
    await resource?.close();
    await t?.close();
  });

  it('accepts svc\'s token: request.user is { id, roles, permissions }, as signed', async () => {
    expect(claimsOf(held.access)).toMatchObject({ roles: ['member'], permissions: ['orders:read'] });
    const response = await resource.orders(held.access);
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ id: held.userId, roles: ['member'], permissions: ['orders:read'] });
  });

  it('is the same through SvcJwtModule.forRootAsync', async () => {
    const viaFactory = await createResourceServer({ jwksUrl: `${t.url}/auth/jwks`, clock: t.clock }, true);
    try {
      expect((await viaFactory.orders(held.access)).body.user).toEqual({ id: held.userId, roles: ['member'], permissions: ['orders:read'] });
      expect((await viaFactory.orders(`${held.access}x`)).status).toBe(401);
    } finally {
      await viaFactory.close();
    }
  });

  it('refuses a missing token with 401', async () => {
    expect((await resource.orders()).status).toBe(401);
  });

  it('refuses an expired token (exp against the clock it was given)', async () => {
    const { access } = await t.signup('expiring@x.io');
    expect((await resource.orders(access)).status).toBe(200);
    t.clock.advance(11 * MINUTE);
    try {
      expect((await resource.orders(access)).status).toBe(401);
    } finally {
      t.clock.set(new Date(t.clock.now().getTime() - 11 * MINUTE));
    }
  });

  it('refuses a tampered token (a role added to its payload)', async () => {
    const [header, payload, signature] = held.access.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, roles: ['admin'], permissions: ['users:*'] })).toString('base64url')}.${signature}`;
    expect((await resource.orders(tampered)).status).toBe(401);
  });

  it('refuses a foreign token: another key under the same kid, another issuer, another audience, alg none, HS256 with the public key', async () => {
    const claims = claimsOf(held.access);
    const foreign = createPrivateKey(privateKeyFor('ES256'));
    const own = createPrivateKey(privateKey);
    const jwks = (await (await fetch(`${t.url}/auth/jwks`)).json()) as { keys: object[] };
    const tokens = [
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'es-1' }).sign(foreign),
      await new SignJWT({ ...claims, iss: 'https://elsewhere.example' }).setProtectedHeader({ alg: 'ES256', kid: 'es-1' }).sign(own),
      await new SignJWT({ ...claims, aud: 'https://elsewhere.example' }).setProtectedHeader({ alg: 'ES256', kid: 'es-1' }).sign(own),
      await new SignJWT({ ...claims, typ: 'refresh' }).setProtectedHeader({ alg: 'ES256', kid: 'es-1' }).sign(own),
      forgeToken({ alg: 'none', kid: 'es-1' }, claims, 'none'),
      forgeToken({ alg: 'HS256', kid: 'es-1' }, claims, { hmac: { hash: 'sha256', key: JSON.stringify(jwks.keys[0]) } }),
    ];
    for (const token of tokens) expect((await resource.orders(token)).status).toBe(401);
    expect(claims.iss).toBe(BASE_URL);
  });

  it("accepts a token until it expires, though svc revoked its family (the second service cannot know; svc refuses at once)", async () => {
    const { access, refresh } = await t.signup('leaving@x.io');
    expect((await t.refresh(refresh)).status).toBe(200);
    expect((await t.refresh(refresh)).status).toBe(401); // reuse: the family is revoked
    expect((await t.me(access)).status).toBe(401);
    expect((await resource.orders(access)).status).toBe(200);
  });
});

describe('svc/passport when the key set cannot be had', () => {
  it('answers 503, not 401: the token may be good, the issuer is unreachable', async () => {
    const port = await reserveLoopbackPort();
    const resource = await createResourceServer({ jwksUrl: `http://127.0.0.1:${port}/auth/jwks` });
    try {
      const token = forgeToken({ alg: 'EdDSA', kid: 'k1' }, { sub: 'x', typ: 'access' }, 'none').concat('c2ln');
      expect((await resource.orders(token)).status).toBe(503);
    } finally {
      await resource.close();
    }
  });
});

describe('svc/passport options', () => {
  it('refuses a relative jwksUrl, an empty issuer and HMAC algorithms with a TypeError naming the option', async () => {
    await expect(createResourceServer({ jwksUrl: '/auth/jwks' })).rejects.toThrow('jwksUrl must be an absolute URL');
    await expect(createResourceServer({ jwksUrl: 'http://x.test/auth/jwks', issuer: '' })).rejects.toThrow('issuer is required');
    await expect(createResourceServer({ jwksUrl: 'http://x.test/auth/jwks', algorithms: ['HS256' as never] })).rejects.toThrow('algorithms must be');
  });
});

import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL } from '../../support/test-app.js';
import { ASYMMETRIC, claimsOf, createSigningApp, headerOf, privateKeyFor, type SigningApp } from '../signing-kit.js';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

describe.each(BEHAVIOUR_ENGINES)('signed access tokens and /jwks on %s', (engine) => {
  describe.each(ASYMMETRIC)('%s', (algorithm) => {
    let t: SigningApp;
    beforeAll(async () => {
      t = await createSigningApp({ engine, signing: { algorithm, keys: [{ kid: 'current', privateKey: privateKeyFor(algorithm) }, { kid: 'older', privateKey: privateKeyFor(algorithm) }] } });
    });
    afterAll(() => t.close());

    it('GET /auth/jwks answers every public key with kid, alg and use, no private member, cacheable for 300 s', async () => {
      const response = await request(t.url).get('/auth/jwks');
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.body.keys.map((key: Record<string, unknown>) => [key.kid, key.alg, key.use])).toEqual([
        ['current', algorithm, 'sig'],
        ['older', algorithm, 'sig'],
      ]);
      for (const key of response.body.keys) for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    });

    it("tokens carry the first key's kid, iss and aud (the base URL), and jose's createRemoteJWKSet verifies them against /jwks", async () => {
      const { access } = await t.signup(`${algorithm.toLowerCase()}@x.io`);
      expect(headerOf(access)).toEqual({ alg: algorithm, kid: 'current', typ: 'JWT' });
      expect(claimsOf(access)).toMatchObject({ iss: BASE_URL, aud: BASE_URL, typ: 'access' });
      const keys = createRemoteJWKSet(new URL(`${t.url}/auth/jwks`));
      const { payload } = await jwtVerify(access, keys, { issuer: BASE_URL, audience: BASE_URL, currentDate: t.clock.now() });
      expect(payload.sub).toBe(claimsOf(access).sub);
      expect((await t.me(access)).status).toBe(200);
    });

    it('the published key of another kid does not verify the token (each key verifies its own)', async () => {
      const { access } = await t.signup(`${algorithm.toLowerCase()}-2@x.io`);
      const { body } = await request(t.url).get('/auth/jwks');
      const others = createLocalJWKSet({ keys: body.keys.filter((key: { kid: string }) => key.kid !== 'current').map((key: object) => ({ ...key, kid: 'current' })) });
      await expect(jwtVerify(access, others, { currentDate: t.clock.now() })).rejects.toThrow();
    });
  });

  describe('HS256 (jwt.signing with the module secret)', () => {
    let t: SigningApp;
    beforeAll(async () => {
      t = await createSigningApp({ engine, signing: { algorithm: 'HS256' } });
    });
    afterAll(() => t.close());

    it('GET /auth/jwks is 404 NOT_FOUND: nothing public to publish', async () => {
      const response = await request(t.url).get('/auth/jwks');
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    });

    it('tokens carry iss and aud, no kid, and verify at /me', async () => {
      const { access } = await t.signup('hmac@x.io');
      expect(headerOf(access)).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(claimsOf(access)).toMatchObject({ iss: BASE_URL, aud: BASE_URL });
      expect((await t.me(access)).status).toBe(200);
    });
  });

  describe('without jwt.signing', () => {
    let t: SigningApp;
    beforeAll(async () => {
      t = await createSigningApp({ engine });
    });
    afterAll(() => t.close());

    it('tokens are as before (no kid, iss or aud; auth_time as every token has it) and /jwks is 404', async () => {
      const { access } = await t.signup('plain@x.io');
      expect(headerOf(access)).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(Object.keys(claimsOf(access)).sort()).toEqual(['auth_time', 'exp', 'iat', 'jti', 'sid', 'sub', 'typ']);
      expect((await request(t.url).get('/auth/jwks')).status).toBe(404);
    });
  });

  describe('issuer and audience', () => {
    let t: SigningApp;
    beforeAll(async () => {
      t = await createSigningApp({ engine, signing: { algorithm: 'EdDSA', keys: [{ kid: 'k1', privateKey: privateKeyFor('EdDSA') }] }, jwt: { issuer: 'https://id.example', audience: 'orders-api' } });
    });
    afterAll(() => t.close());

    it('jwt.issuer and jwt.audience are the claims, and /me accepts them', async () => {
      const { access } = await t.signup('aud@x.io');
      expect(claimsOf(access)).toMatchObject({ iss: 'https://id.example', aud: 'orders-api' });
      expect((await t.me(access)).status).toBe(200);
    });
  });
});

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TEST_SECRET } from '../../support/test-app.js';
import { claimsOf, createJwtApp, forgeToken, type JwtApp, signWithTestSecret } from '../jwt-kit.js';

const ATTACKER_SECRET = 'Hk3vQ9zP1mR7wT4yX8bN2cL6jF0dS5gA';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe.each(BEHAVIOUR_ENGINES)('forged access tokens on %s', (engine) => {
  let t: JwtApp;
  let victim: { access: string; refresh: string; userId: string };
  let other: { access: string; refresh: string; userId: string };
  let claims: Record<string, unknown>;
  const now = () => Math.floor(t.clock.now().getTime() / 1000);

  beforeAll(async () => {
    t = await createJwtApp({ engine });
    victim = await t.account('victim@x.io');
    other = await t.account('other@x.io');
    claims = claimsOf(victim.access);
  });
  afterAll(() => t.close());

  /** Every refusal: 401 UNAUTHENTICATED with `WWW-Authenticate: Bearer`, on the library's and the application's route. */
  async function expectRefused(token: string): Promise<void> {
    for (const path of ['/auth/me', '/profile']) {
      const response = await t.me(token, path);
      expect({ path, status: response.status, challenge: response.headers['www-authenticate'], code: response.body.code }).toEqual({
        path,
        status: 401,
        challenge: 'Bearer',
        code: 'UNAUTHENTICATED',
      });
    }
  }

  it('the genuine token and a re-signed copy of its claims pass (the cases below differ in one thing)', async () => {
    expect((await t.me(victim.access)).status).toBe(200);
    expect((await t.me(signWithTestSecret(claims))).status).toBe(200);
  });

  it.each(['none', 'None', 'NONE', 'nOnE', 'nonE'])('alg %s is refused, unsigned or with a signature (RFC 8725 §3.1)', async (alg) => {
    await expectRefused(forgeToken({ alg, typ: 'JWT' }, claims, 'none'));
    const signature = victim.access.split('.')[2];
    await expectRefused(`${forgeToken({ alg, typ: 'JWT' }, claims, 'none')}${signature}`);
    await expectRefused(forgeToken({ alg, typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key: TEST_SECRET } }));
  });

  it('a token signed with another secret is refused', async () => {
    await expectRefused(forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key: ATTACKER_SECRET } }));
  });

  it('a tampered payload is refused (signature no longer matches)', async () => {
    const [header, , signature] = victim.access.split('.');
    for (const change of [{ sub: other.userId }, { exp: now() + 86_400 }, { typ: 'access', admin: true }]) {
      const payload = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url');
      await expectRefused(`${header}.${payload}.${signature}`);
    }
    const [, payload] = victim.access.split('.');
    await expectRefused(`${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
  });

  it('another HMAC than the configured one is refused, even with the right secret (RFC 8725 §3.1)', async () => {
    await expectRefused(signWithTestSecret(claims, { alg: 'HS384', typ: 'JWT' }));
    await expectRefused(forgeToken({ alg: 'HS512', typ: 'JWT' }, claims, { hmac: { hash: 'sha512', key: TEST_SECRET } }));
  });

  it('asymmetric algorithms are refused: RS256 with a generated key, with its key in `jwk`, and HS256 keyed with the public key text', async () => {
    await expectRefused(forgeToken({ alg: 'RS256', typ: 'JWT' }, claims, { rsa: rsa.privateKey }));
    const jwk = rsa.publicKey.export({ format: 'jwk' });
    await expectRefused(forgeToken({ alg: 'RS256', typ: 'JWT', jwk }, claims, { rsa: rsa.privateKey }));
    await expectRefused(forgeToken({ alg: 'PS256', typ: 'JWT' }, claims, { rsa: rsa.privateKey }));
    // Algorithm confusion: a verifier that took the "key" as given would accept this one.
    await expectRefused(forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key: publicPem } }));
  });

  it('`kid`, `jku`, `jwk` and `x5u` never select a key', async () => {
    const attacker = { hmac: { hash: 'sha256' as const, key: ATTACKER_SECRET } };
    await expectRefused(forgeToken({ alg: 'HS256', kid: 'attacker-key' }, claims, attacker));
    await expectRefused(forgeToken({ alg: 'HS256', jku: 'https://evil.test/jwks.json' }, claims, attacker));
    await expectRefused(forgeToken({ alg: 'HS256', jwk: { kty: 'oct', k: Buffer.from(ATTACKER_SECRET).toString('base64url') } }, claims, attacker));
    await expectRefused(forgeToken({ alg: 'HS256', x5u: 'https://evil.test/cert.pem' }, claims, attacker));
    // The library's own key signs it: such a header changes nothing.
    expect((await t.me(signWithTestSecret(claims, { alg: 'HS256', kid: 'anything', jku: 'https://evil.test/jwks.json' }))).status).toBe(200);
  });

  it('expired: at `exp` and after, and an `exp` that is missing or not a number', async () => {
    expect((await t.me(signWithTestSecret({ ...claims, exp: now() + 1 }))).status).toBe(200);
    await expectRefused(signWithTestSecret({ ...claims, exp: now() }));
    await expectRefused(signWithTestSecret({ ...claims, exp: now() - 3600 }));
    const { exp: _exp, ...withoutExp } = claims;
    await expectRefused(signWithTestSecret(withoutExp));
    await expectRefused(signWithTestSecret({ ...claims, exp: String(now() + 600) }));
  });

  it('a genuine token stops working when the clock passes its exp (10 minutes by default)', async () => {
    const { access } = await t.account('clock@x.io');
    t.clock.advance(599_000);
    expect((await t.me(access)).status).toBe(200);
    t.clock.advance(1_000);
    await expectRefused(access);
    t.clock.advance(-600_000);
  });

  it('not yet valid: `nbf` or `iat` in the future', async () => {
    await expectRefused(signWithTestSecret({ ...claims, nbf: now() + 60 }));
    await expectRefused(signWithTestSecret({ ...claims, iat: now() + 3600 }));
    expect((await t.me(signWithTestSecret({ ...claims, nbf: now() }))).status).toBe(200);
    const { iat: _iat, ...withoutIat } = claims;
    await expectRefused(signWithTestSecret(withoutIat));
  });

  it('wrong or missing `typ`', async () => {
    for (const typ of ['refresh', 'Access', 'id', '', undefined]) await expectRefused(signWithTestSecret({ ...claims, typ }));
  });

  it('a revoked `sid`: after logout the live access token is refused at once', async () => {
    const account = await t.account('logout@x.io');
    expect((await t.me(account.access)).status).toBe(200);
    expect((await t.logout({ refresh: account.refresh })).status).toBe(204);
    await expectRefused(account.access);
  });

  it('a `sid` that names no family, or another user\'s family, is refused', async () => {
    await expectRefused(signWithTestSecret({ ...claims, sid: randomUUID() }));
    await expectRefused(signWithTestSecret({ ...claims, sid: claimsOf(other.access).sid }));
    await expectRefused(signWithTestSecret({ ...claims, sid: 'not-a-uuid' }));
    await expectRefused(signWithTestSecret({ ...claims, sid: undefined }));
  });

  it('an unknown `sub`, a deleted user, a `sub` that is not a UUID', async () => {
    await expectRefused(signWithTestSecret({ ...claims, sub: randomUUID() }));
    await expectRefused(signWithTestSecret({ ...claims, sub: "x' OR '1'='1" }));
    await expectRefused(signWithTestSecret({ ...claims, sub: 42 }));
    const doomed = await t.account('doomed@x.io');
    await t.dataSource.query(`DELETE FROM refresh_tokens WHERE user_id = '${doomed.userId}'`);
    await t.dataSource.query(`DELETE FROM users WHERE id = '${doomed.userId}'`);
    await expectRefused(doomed.access);
  });

  it('an inactive user is refused at once', async () => {
    const account = await t.account('inactive@x.io');
    await t.dataSource.query(`UPDATE users SET is_active = false WHERE id = '${account.userId}'`);
    await expectRefused(account.access);
  });

  it('malformed tokens and payloads', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    for (const token of ['a.b.c', `${header}.e30`, `${header}..`, 'x'.repeat(5000), `${header}.${'A'.repeat(20)}.sig`]) await expectRefused(token);
    await expectRefused(signWithTestSecret([claims]));
    await expectRefused(signWithTestSecret('"just a string"'));
    await expectRefused(signWithTestSecret(null));
  });

  it('the refusals were answered without touching anyone\'s credentials', async () => {
    expect((await t.me(victim.access)).status).toBe(200);
    expect((await request(t.url).post('/auth/refresh').set('Cookie', `svc_refresh=${victim.refresh}`)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { TEST_SECRET, TestClock } from '../../support/test-app.js';
import { codeOfSecretAt } from '../../two-step/codes-of-secret.js';
import { type CacheApp, createCacheApp, type Credential, type CredentialKind, PASSWORD } from '../cache-kit.js';

// docs/guides/principal-cache.md: a change the library makes to what the user body says goes from the
// cache at once. Turning two-step login on or off changes `mfa.totp`; a cached principal must not
// keep the old answer until its TTL.
const CREDENTIALS: CredentialKind[] = ['session', 'jwt'];

const cases = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(cases)('two-step login and the principal cache on %s, %s credential', (engine, credential) => {
  const clock = new TestClock();
  let t: CacheApp;

  beforeAll(async () => {
    t = await createCacheApp({
      engine,
      credential,
      clock,
      principalCache: { ttlSeconds: 600, ...(engine === 'sqlite' ? { invalidation: 'local' } : {}) },
      options: { secret: TEST_SECRET, mfa: { issuer: 'svc test' } },
    });
  });
  afterAll(() => t.close());

  async function meBody(held: Credential): Promise<{ mfa: { totp: boolean } }> {
    const response = await t.send('GET', '/auth/me', held);
    expect(response.status).toBe(200);
    return (await response.json()) as { mfa: { totp: boolean } };
  }

  async function post(held: Credential, path: string, body: unknown): Promise<Response> {
    return t.send('POST', path, { ...held, headers: { ...held.headers, origin: 'http://app.test' } }, body);
  }

  it('GET /me shows two-step login on, then off, the moment it changes, though the principal was cached', async () => {
    const held = await t.signup(`cached-mfa-${randomBytes(4).toString('hex')}@example.io`);
    expect((await meBody(held)).mfa).toEqual({ totp: false });
    // Served from the cache now: no statement for it.
    const before = t.statements();
    expect((await meBody(held)).mfa).toEqual({ totp: false });
    expect(t.statements()).toBe(before);

    const setup = await post(held, '/auth/mfa/totp/setup', { password: PASSWORD });
    expect(setup.status).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    expect((await post(held, '/auth/mfa/totp/enable', { code: codeOfSecretAt(secret, clock.now()) })).status).toBe(200);
    expect((await meBody(held)).mfa).toEqual({ totp: true });

    clock.advance(30_000);
    expect((await post(held, '/auth/mfa/totp/disable', { password: PASSWORD, code: codeOfSecretAt(secret, clock.now()) })).status).toBe(204);
    expect((await meBody(held)).mfa).toEqual({ totp: false });
  });
});

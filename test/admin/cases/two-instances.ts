import { randomBytes } from 'node:crypto';
import { observePrincipalCache } from '#svc/auth/testing';
import { canUsePostgres } from '../../support/engines.js';
import { eventually } from '../../support/eventually.js';
import { describeNotRun } from '../../support/not-run.js';
import { TEST_SECRET } from '../../support/test-app.js';
import { type CacheApp, type Credential, createCacheApp } from '../../principal-cache/cache-kit.js';
import { type CredentialKind, POLICY } from '../admin-kit.js';

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.io`;

// docs/guides/administration.md, "Acting on a user": a deactivation on one instance refuses the
// user's credentials on the others at once, principal cache on (LISTEN/NOTIFY), not at its TTL.
const cases: CredentialKind[] = (await canUsePostgres()) ? ['session', 'jwt'] : [];
if (cases.length === 0) describeNotRun('deactivation across two instances on one PostgreSQL database', 'PostgreSQL unreachable or left out by SVC_TEST_ENGINES');
for (const credential of cases) describe(`deactivation across two ${credential} instances with the principal cache on`, () => {
  const channel = `svc_test_${randomBytes(6).toString('hex')}`;
  const options = { secret: TEST_SECRET, authorization: POLICY, admin: {} };
  let a: CacheApp;
  let b: CacheApp;
  /** Invalidations A has published, and those B's cache has applied (B publishes none: it only answers /auth/me). */
  let publishedByA = 0;
  let appliedOnB = 0;
  beforeAll(async () => {
    a = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options });
    b = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options, sharing: a });
    observePrincipalCache(a.app, { published: () => publishedByA++ });
    observePrincipalCache(b.app, { applied: () => appliedOnB++ });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /**
   * B serves the principal from its cache: a second /me runs no statement. First B has applied every
   * invalidation A has published so far (the grant of the admin role, say): one arriving between the
   * first /me's read and its cache fill rightly refuses that fill, and the second /me reads again.
   */
  async function expectCachedOnB(held: Credential): Promise<void> {
    await eventually('B applied every invalidation A published', () => appliedOnB >= publishedByA, 2000);
    expect(await b.me(held)).toBe(200);
    const before = b.statements();
    expect(await b.me(held)).toBe(200);
    expect(b.statements() - before).toBe(0);
  }

  it('POST /admin/users/{id}/deactivate on A ends the cached session or jwt family on B, well before the TTL', async () => {
    const admin = await a.signup(unique('admin'));
    await a.auth.grantRole(admin.userId, 'admin');
    const victim = await a.signup(unique('victim'));
    await expectCachedOnB(victim);
    const response = await a.send('POST', `/auth/admin/users/${victim.userId}/deactivate`, admin, { reason: 'abuse' });
    expect(response.status).toBe(204);
    await eventually('B refuses the deactivated user', async () => (await b.me(victim)) === 401, 2000);
    expect(await a.me(victim)).toBe(401);
    expect(await b.me(admin)).toBe(200);
  });
});

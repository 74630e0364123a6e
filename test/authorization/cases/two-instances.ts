import { randomBytes } from 'node:crypto';
import { observePrincipalCache } from '#svc/auth/testing';
import { canUsePostgres } from '../../support/engines.js';
import { eventually } from '../../support/eventually.js';
import { describeNotRun } from '../../support/not-run.js';
import { type CacheApp, type Credential, createCacheApp } from '../../principal-cache/cache-kit.js';
import { type CredentialKind, NotesController, POLICY } from '../authorization-kit.js';

const CREDENTIALS: CredentialKind[] = ['session', 'jwt'];
const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.io`;

// docs/guides/roles-and-permissions.md: a grant or revocation on one instance takes effect on the others,
// principal cache on, as soon as its invalidation arrives (LISTEN/NOTIFY here), not at the cache's TTL.
const cases = (await canUsePostgres()) ? CREDENTIALS : [];
if (cases.length === 0) describeNotRun('roles across two instances on one PostgreSQL database', 'PostgreSQL unreachable or left out by SVC_TEST_ENGINES');
for (const credential of cases) describe(`roles across two ${credential} instances with the principal cache on`, () => {
  const channel = `svc_test_${randomBytes(6).toString('hex')}`;
  let a: CacheApp;
  let b: CacheApp;
  /** Invalidations A has published, and those B's cache has applied (B publishes none: it only answers requests). */
  let publishedByA = 0;
  let appliedOnB = 0;
  beforeAll(async () => {
    const options = { authorization: POLICY };
    a = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options, controllers: [NotesController] });
    b = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options, controllers: [NotesController], sharing: a });
    observePrincipalCache(a.app, { published: () => publishedByA++ });
    observePrincipalCache(b.app, { applied: () => appliedOnB++ });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Status of GET /notes (`@Roles('editor', 'reader')`) on `app`; the bearer alone for jwt. */
  async function notesOn(app: CacheApp, held: Credential): Promise<number> {
    const headers = credential === 'jwt' ? { authorization: held.headers.authorization } : held.headers;
    const response = await fetch(`${app.url}/notes`, { headers });
    await response.arrayBuffer();
    return response.status;
  }

  /**
   * B serves the principal from its cache: a second request runs no statement. First B has applied
   * every invalidation A has published so far: B may answer a grant's 200 from the database before
   * the grant's invalidation arrives, which then rightly evicts what that request cached.
   */
  async function expectCachedOnB(held: Credential, status: number): Promise<void> {
    await eventually('B applied every invalidation A published', () => appliedOnB >= publishedByA, 2000);
    expect(await notesOn(b, held)).toBe(status);
    const before = b.statements();
    expect(await notesOn(b, held)).toBe(status);
    expect(b.statements() - before).toBe(0);
  }

  it('a grant on A lets the cached principal on B in, and a revocation on A shuts it out, well before the TTL', async () => {
    const held = await a.signup(unique('two'));
    await expectCachedOnB(held, 403);
    await a.auth.grantRole(held.userId, 'reader');
    await eventually('B honours the grant', async () => (await notesOn(b, held)) === 200, 2000);
    await expectCachedOnB(held, 200);
    await a.auth.revokeRole(held.userId, 'reader');
    await eventually('B honours the revocation', async () => (await notesOn(b, held)) === 403, 2000);
  });
});

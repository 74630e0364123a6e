import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { AuthEvent } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import { canUsePostgres } from '../../support/engines.js';
import { eventually } from '../../support/eventually.js';
import { describeNotRun } from '../../support/not-run.js';
import { TEST_SECRET } from '../../support/test-app.js';
import { type CacheApp, type Credential, createCacheApp } from '../../principal-cache/cache-kit.js';
import { type CredentialKind, ORG_POLICY, OrgProjectsController } from '../organizations-kit.js';

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.io`;

// docs/guides/organizations.md, "Across instances": a change of role, a removal and a deletion on one
// instance count on the others at the member's next request, principal cache on (LISTEN/NOTIFY).
const cases: CredentialKind[] = (await canUsePostgres()) ? ['session', 'jwt'] : [];
if (cases.length === 0) describeNotRun('organization changes across two instances on one PostgreSQL database', 'PostgreSQL unreachable or left out by SVC_TEST_ENGINES');
for (const credential of cases) describe(`organization changes across two ${credential} instances with the principal cache on`, () => {
  const channel = `svc_test_${randomBytes(6).toString('hex')}`;
  const options = { secret: TEST_SECRET, organizations: { ...ORG_POLICY, sendsInvitationMail: false } };
  let a: CacheApp;
  let b: CacheApp;
  beforeAll(async () => {
    a = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options, controllers: [OrgProjectsController] });
    b = await createCacheApp({ engine: 'postgres', credential, principalCache: { channel, ttlSeconds: 3600 }, options, controllers: [OrgProjectsController], sharing: a });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** A verified user signed in through A (svc/testing's signIn), its credential good on both. */
  async function member(label: string): Promise<Credential> {
    const { user, headers } = await signIn(a.app, unique(label), { verified: true });
    return { userId: user.id, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])) };
  }

  /** An organization of `owner` that `joining` joined as `role` and made its active one; resolves to its id. */
  async function organizationWith(owner: Credential, joining: Credential, role: string): Promise<string> {
    const created = await a.send('POST', '/auth/organizations', owner, { name: 'Acme', slug: `acme-${randomBytes(4).toString('hex')}` });
    const { id } = (await created.json()) as { id: string };
    const email = ((await (await a.send('GET', '/auth/me', joining)).json()) as { email: string }).email;
    const before = a.events.payloadsOf(AuthEvent.OrganizationInvitationMail).length;
    expect((await a.send('POST', `/auth/organizations/${id}/invitations`, owner, { email, role })).status).toBe(201);
    const mails = await a.events.waitFor(AuthEvent.OrganizationInvitationMail, before + 1);
    expect((await a.send('POST', '/auth/organizations/invitations/accept', joining, { token: mails[before].token })).status).toBe(200);
    const activated = await a.send('POST', `/auth/organizations/${id}/activate`, joining);
    if (credential === 'jwt') joining.headers.authorization = `Bearer ${((await activated.json()) as { access_token: string }).access_token}`;
    return id;
  }

  /**
   * B serves the member's principal from its cache: a second /org-projects runs no statement. The
   * invalidation the activation on A sent may reach B after B first read the principal, so B is
   * asked until its cache holds it.
   */
  async function expectCachedOnB(held: Credential): Promise<void> {
    await eventually('B serves the member from its cache', async () => {
      expect((await b.send('GET', '/org-projects', held)).status).toBe(200);
      const before = b.statements();
      expect((await b.send('GET', '/org-projects', held)).status).toBe(200);
      return b.statements() === before;
    }, 2000);
  }

  it('a member removed on A is refused on B at its next request: 403 ORGANIZATION_REQUIRED, well before the TTL', async () => {
    const owner = await member('owner');
    const alice = await member('alice');
    const org = await organizationWith(owner, alice, 'member');
    await expectCachedOnB(alice);
    expect((await a.send('DELETE', `/auth/organizations/${org}/members/${alice.userId}`, owner)).status).toBe(204);
    await eventually('B refuses the removed member', async () => (await b.send('GET', '/org-projects', alice)).status === 403, 2000);
    expect(((await (await b.send('GET', '/org-projects', alice)).json()) as { code: string }).code).toBe('ORGANIZATION_REQUIRED');
  });

  it("a change of role on A gives the member's new permissions on B at its next request", async () => {
    const owner = await member('owner');
    const alice = await member('alice');
    const org = await organizationWith(owner, alice, 'member');
    await expectCachedOnB(alice);
    expect((await a.send('PATCH', `/auth/organizations/${org}/members/${alice.userId}`, owner, { role: 'admin' })).status).toBe(204);
    const roleOnB = async () => ((await (await b.send('GET', '/auth/me', alice)).json()) as { organization: { role: string } | null }).organization?.role;
    await eventually('B sees the new role', async () => (await roleOnB()) === 'admin', 2000);
  });

  it('an organization deleted on A is no active organization on B at the next request', async () => {
    const owner = await member('owner');
    const alice = await member('alice');
    const org = await organizationWith(owner, alice, 'member');
    await expectCachedOnB(alice);
    expect((await a.send('DELETE', `/auth/organizations/${org}`, owner)).status).toBe(204);
    await eventually('B refuses the former member', async () => (await b.send('GET', '/org-projects', alice)).status === 403, 2000);
  });
});

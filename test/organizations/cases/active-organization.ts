import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { claimsOf, createOrgApp, type Held, type OrgApp } from '../organizations-kit.js';

// docs/guides/organizations.md, "The active organization": /me and request.user carry it; @OrgRoles
// and @OrgPermissions check it; a removal, a change of role or a deletion counts at the next request.
// Behaviour, on SQLite, but for one flow through each statement the section adds to the credential's
// store (the lookup's join of the active membership, the activation's update and, for jwt, the refresh's
// read of the family's organization), on every engine with each credential.
const cases = credentialCases(await availableEngines(), ['session', 'jwt']);

describe.each(cases)('the active organization on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: OrgApp;
  let owner: Held;
  let alice: Held;
  let org: string;

  beforeAll(async () => {
    t = await createOrgApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    owner = await t.user('owner@example.io');
    alice = await t.user('alice@example.io');
    org = await t.organization(owner, 'acme');
    await t.join(owner, org, alice, 'member');
  });
  afterAll(() => t.close());

  it('/me shows organization null until one is activated, then { id, role, permissions }', async () => {
    expect((await t.me(alice).expect(200)).body.organization).toBeNull();
    await t.activate(alice, org);
    expect((await t.me(alice).expect(200)).body.organization).toEqual({ id: org, role: 'member', permissions: ['projects:read'] });
    expect((await t.me(owner).expect(200)).body.organization).toBeNull();
  });

  behaviourIt('@OrgPermissions: 401 without a credential, 403 ORGANIZATION_REQUIRED without an active organization, 200 { organizationId } with it', async () => {
    expect((await t.call(null, 'get', '!/org-projects').expect(401)).body.code).toBe('UNAUTHENTICATED');
    expect((await t.call(alice, 'get', '!/org-projects').expect(403)).body.code).toBe('ORGANIZATION_REQUIRED');
    await t.activate(alice, org);
    expect((await t.call(alice, 'get', '!/org-projects').expect(200)).body).toEqual({ organizationId: org });
  });

  behaviourIt('@OrgRoles: 403 PERMISSION_DENIED for a member of another role, 200 for the role', async () => {
    await t.activate(alice, org);
    await t.activate(owner, org);
    expect((await t.call(alice, 'get', '!/org-admin').expect(403)).body.code).toBe('PERMISSION_DENIED');
    await t.call(owner, 'get', '!/org-admin').expect(200);
  });

  behaviourIt('a change of role counts at the next request: new permissions, and @OrgRoles follows', async () => {
    await t.activate(alice, org);
    await t.call(alice, 'get', '!/org-admin').expect(403);
    await t.call(owner, 'patch', `/organizations/${org}/members/${alice.userId}`, { role: 'admin' }).expect(204);
    await t.call(alice, 'get', '!/org-admin').expect(200);
    expect((await t.me(alice).expect(200)).body.organization).toEqual({ id: org, role: 'admin', permissions: ['members:*', 'organization:update', 'projects:*'] });
  });

  behaviourIt('a removed member loses it at the next request: 403 ORGANIZATION_REQUIRED, /me organization null', async () => {
    await t.activate(alice, org);
    await t.call(alice, 'get', '!/org-projects').expect(200);
    await t.call(owner, 'delete', `/organizations/${org}/members/${alice.userId}`).expect(204);
    expect((await t.call(alice, 'get', '!/org-projects').expect(403)).body.code).toBe('ORGANIZATION_REQUIRED');
    expect((await t.me(alice).expect(200)).body.organization).toBeNull();
  });

  behaviourIt('a deleted organization is no active organization at the next request', async () => {
    await t.activate(alice, org);
    await t.call(owner, 'delete', `/organizations/${org}`).expect(204);
    expect((await t.call(alice, 'get', '!/org-projects').expect(403)).body.code).toBe('ORGANIZATION_REQUIRED');
  });

  behaviourIt('switching moves the credential to the other organization; the user’s other credentials keep theirs', async () => {
    const beta = await t.organization(alice, 'beta');
    const other = await t.user('alice@example.io');
    await t.activate(alice, org);
    await t.activate(other, beta);
    expect((await t.me(alice).expect(200)).body.organization.id).toBe(org);
    expect((await t.me(other).expect(200)).body.organization).toEqual({ id: beta, role: 'owner', permissions: ['members:*', 'organization:*', 'projects:*'] });
    await t.activate(alice, beta);
    expect((await t.call(alice, 'get', '!/org-projects').expect(200)).body).toEqual({ organizationId: beta });
  });

  if (credential === 'jwt') {
    it('jwt: the new access token carries the org claim, and the family keeps it across refreshes', async () => {
      const response = await t.activate(alice, org);
      expect(claimsOf(response.body.access_token)).toEqual(expect.objectContaining({ sub: alice.userId, org }));
      expect((await t.refresh(alice)).status).toBe(200);
      expect(claimsOf(alice.headers.Authorization.slice('Bearer '.length)).org).toBe(org);
      expect((await t.call(alice, 'get', '!/org-projects').expect(200)).body).toEqual({ organizationId: org });
      // Removed: the next refresh signs no org claim.
      await t.call(owner, 'delete', `/organizations/${org}/members/${alice.userId}`).expect(204);
      expect((await t.refresh(alice)).status).toBe(200);
      expect(claimsOf(alice.headers.Authorization.slice('Bearer '.length)).org).toBeUndefined();
    });

    behaviourIt('jwt: an access token whose org claim is not a UUID is refused (401)', async () => {
      const [header, , signature] = alice.headers.Authorization.slice('Bearer '.length).split('.');
      const forged = Buffer.from(JSON.stringify({ ...claimsOf(alice.headers.Authorization.slice(7)), org: 'x' })).toString('base64url');
      await t.call({ ...alice, headers: { Authorization: `Bearer ${header}.${forged}.${signature}` } }, 'get', '/me').expect(401);
    });
  }
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createOrgApp, type Held, type OrgApp, UNKNOWN } from '../organizations-kit.js';

// docs/guides/organizations.md, "Routes": every row of the table with its success and its errors;
// a caller who is not a member gets 404 NOT_FOUND on every /organizations/{id}/… route. Behaviour:
// SQLite, with each credential (the races of the last owner are in last-owner.ts).
const cases = credentialCases(BEHAVIOUR_ENGINES);

describe.each(cases)('organization routes on %s, %s credential', (engine, credential) => {
  let t: OrgApp;
  let owner: Held;
  let alice: Held;
  let stranger: Held;
  let org: string;

  beforeAll(async () => {
    t = await createOrgApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    owner = await t.user('owner@example.io');
    alice = await t.user('alice@example.io');
    stranger = await t.user('stranger@example.io');
    org = await t.organization(owner, 'acme');
  });
  afterAll(() => t.close());

  it('POST /organizations: 201 { id, name, slug, role } with the creator role; svc.organization.created', async () => {
    const response = await t.call(alice, 'post', '/organizations', { name: 'Beta Ltd', slug: 'beta' }).expect(201);
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Beta Ltd', slug: 'beta', role: 'owner' });
    const events = await t.events.waitFor('svc.organization.created', 2);
    expect(events[1]).toEqual({ organization: { id: response.body.id, name: 'Beta Ltd', slug: 'beta' }, actorId: alice.userId });
  });

  it('POST /organizations: 409 ORGANIZATION_SLUG_TAKEN; 400 for a bad slug, a missing name or an unknown field; 401 without a credential', async () => {
    expect((await t.call(alice, 'post', '/organizations', { name: 'Other', slug: 'acme' }).expect(409)).body.code).toBe('ORGANIZATION_SLUG_TAKEN');
    for (const body of [{ name: 'X', slug: 'Bad Slug' }, { name: 'X', slug: '-x' }, { slug: 'fine' }, { name: '', slug: 'fine' }, { name: 'X', slug: 'fine', owner: true }]) {
      expect((await t.call(alice, 'post', '/organizations', body).expect(400)).body.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.call(null, 'post', '/organizations', { name: 'X', slug: 'fine' }).expect(401)).body.code).toBe('UNAUTHENTICATED');
  });

  it("GET /organizations: the caller's memberships with its role in each, nobody else's", async () => {
    await t.join(owner, org, alice, 'member');
    const beta = await t.organization(alice, 'beta');
    const listed = (await t.call(alice, 'get', '/organizations').expect(200)).body;
    expect(listed).toEqual([
      { id: org, name: 'Org acme', slug: 'acme', role: 'member' },
      { id: beta, name: 'Org beta', slug: 'beta', role: 'owner' },
    ]);
    expect((await t.call(stranger, 'get', '/organizations').expect(200)).body).toEqual([]);
  });

  it('GET /organizations/{id}: the members with email, role and joinedAt; 404 NOT_FOUND to a non-member, an unknown id and a malformed one alike', async () => {
    await t.join(owner, org, alice, 'member');
    const details = (await t.call(alice, 'get', `/organizations/${org}`).expect(200)).body;
    expect(details).toEqual({
      id: org,
      name: 'Org acme',
      slug: 'acme',
      members: [
        { userId: owner.userId, email: 'owner@example.io', role: 'owner', joinedAt: expect.any(String) },
        { userId: alice.userId, email: 'alice@example.io', role: 'member', joinedAt: expect.any(String) },
      ],
    });
    const refusals = [await t.call(stranger, 'get', `/organizations/${org}`), await t.call(stranger, 'get', `/organizations/${UNKNOWN}`), await t.call(stranger, 'get', '/organizations/not-a-uuid')];
    for (const refusal of refusals) expect([refusal.status, refusal.body.code, refusal.body.message]).toEqual([404, 'NOT_FOUND', 'No such organization']);
  });

  it('every /organizations/{id}/… route answers a non-member 404 NOT_FOUND, however permitted the change would be', async () => {
    const routes: [ 'get' | 'post' | 'patch' | 'delete', string, object?][] = [
      ['get', `/organizations/${org}`],
      ['patch', `/organizations/${org}`, { name: 'Mine' }],
      ['delete', `/organizations/${org}`],
      ['post', `/organizations/${org}/invitations`, { email: 'x@example.io', role: 'member' }],
      ['delete', `/organizations/${org}/invitations/${UNKNOWN}`],
      ['patch', `/organizations/${org}/members/${owner.userId}`, { role: 'member' }],
      ['delete', `/organizations/${org}/members/${owner.userId}`],
      ['post', `/organizations/${org}/activate`],
    ];
    for (const [method, path, body] of routes) {
      const response = await t.call(stranger, method, path, body);
      expect([method, path, response.status, response.body.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    expect((await t.call(owner, 'get', `/organizations/${org}`).expect(200)).body.name).toBe('Org acme');
  });

  it('PATCH /organizations/{id}: 200 with organization:update; 403 PERMISSION_DENIED for a member without it', async () => {
    await t.join(owner, org, alice, 'member');
    expect((await t.call(owner, 'patch', `/organizations/${org}`, { name: 'Acme Inc' }).expect(200)).body).toEqual({ id: org, name: 'Acme Inc', slug: 'acme', role: 'owner' });
    expect((await t.call(alice, 'patch', `/organizations/${org}`, { name: 'Hijacked' }).expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.call(owner, 'patch', `/organizations/${org}`, { name: 'X', slug: 'y' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await t.call(alice, 'get', `/organizations/${org}`).expect(200)).body.name).toBe('Acme Inc');
  });

  it('DELETE /organizations/{id}: 204 with organization:delete, its members gone with it; 403 for an admin; svc.organization.deleted', async () => {
    await t.join(owner, org, alice, 'admin');
    expect((await t.call(alice, 'delete', `/organizations/${org}`).expect(403)).body.code).toBe('PERMISSION_DENIED');
    await t.call(owner, 'delete', `/organizations/${org}`).expect(204);
    expect((await t.call(alice, 'get', `/organizations/${org}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.call(alice, 'get', '/organizations').expect(200)).body).toEqual([]);
    const [event] = await t.events.waitFor('svc.organization.deleted');
    expect(event).toEqual({ organizationId: org, actorId: owner.userId });
    // The slug is free again.
    await t.organization(alice, 'acme');
  });

  it('POST /organizations/{id}/invitations: 201 { id, email, role, expiresAt } (normalised email); 400 ROLE_UNKNOWN; 403 without members:invite or for a role granting more than the inviter holds', async () => {
    await t.join(owner, org, alice, 'admin');
    const response = await t.call(alice, 'post', `/organizations/${org}/invitations`, { email: ' Bob@Example.IO ', role: 'member' }).expect(201);
    expect(response.body).toEqual({ id: expect.any(String), email: 'bob@example.io', role: 'member', expiresAt: new Date(t.clock.now().getTime() + 72 * 3_600_000).toISOString() });
    expect((await t.call(alice, 'post', `/organizations/${org}/invitations`, { email: 'c@example.io', role: 'emperor' }).expect(400)).body.code).toBe('ROLE_UNKNOWN');
    // An admin lacks organization:delete, which owner grants: no one hands out more than they hold.
    expect((await t.call(alice, 'post', `/organizations/${org}/invitations`, { email: 'c@example.io', role: 'owner' }).expect(403)).body.code).toBe('PERMISSION_DENIED');
    const member = await t.user('member@example.io');
    await t.join(owner, org, member, 'member');
    expect((await t.call(member, 'post', `/organizations/${org}/invitations`, { email: 'c@example.io', role: 'member' }).expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.call(alice, 'post', `/organizations/${org}/invitations`, { email: 'not an email', role: 'member' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  it('POST /organizations/{id}/invitations: svc.organization.invitation_created never carries the token; the mail event carries the link', async () => {
    const response = await t.call(owner, 'post', `/organizations/${org}/invitations`, { email: 'bob@example.io', role: 'admin' }).expect(201);
    const [created] = await t.events.waitFor('svc.organization.invitation_created');
    const [mail] = await t.events.waitFor('svc.organization.invitation_mail');
    expect(created).toEqual({ organizationId: org, invitationId: response.body.id, email: 'bob@example.io', role: 'admin', invitedBy: owner.userId, expiresAt: expect.any(Date) });
    expect(JSON.stringify(created)).not.toContain(mail.token);
    expect(mail).toEqual(expect.objectContaining({ to: 'bob@example.io', role: 'admin', invitationId: response.body.id, organization: { id: org, name: 'Org acme', slug: 'acme' } }));
    expect(mail.link).toBe(`http://app.test/accept-invitation?token=${mail.token}`);
    expect(JSON.stringify(response.body)).not.toContain(mail.token);
  });

  it('DELETE /organizations/{id}/invitations/{invitationId}: 204, the token then refused; 404 for an unknown or spent one; 403 without members:invite', async () => {
    const response = await t.call(owner, 'post', `/organizations/${org}/invitations`, { email: 'alice@example.io', role: 'member' }).expect(201);
    const [mail] = await t.events.waitFor('svc.organization.invitation_mail');
    const member = await t.user('member@example.io');
    await t.join(owner, org, member, 'member');
    expect((await t.call(member, 'delete', `/organizations/${org}/invitations/${response.body.id}`).expect(403)).body.code).toBe('PERMISSION_DENIED');
    await t.call(owner, 'delete', `/organizations/${org}/invitations/${response.body.id}`).expect(204);
    expect((await t.call(owner, 'delete', `/organizations/${org}/invitations/${response.body.id}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.call(owner, 'delete', `/organizations/${org}/invitations/${UNKNOWN}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.call(alice, 'post', '/organizations/invitations/accept', { token: mail.token }).expect(400)).body.code).toBe('INVITATION_INVALID');
  });

  it('PATCH /organizations/{id}/members/{userId}: 204 and svc.organization.member_role_changed; 400 ROLE_UNKNOWN; 403 without members:update; 404 for a non-member target', async () => {
    await t.join(owner, org, alice, 'member');
    await t.call(owner, 'patch', `/organizations/${org}/members/${alice.userId}`, { role: 'admin' }).expect(204);
    const [event] = await t.events.waitFor('svc.organization.member_role_changed');
    expect(event).toEqual({ organizationId: org, userId: alice.userId, from: 'member', to: 'admin', actorId: owner.userId });
    expect((await t.call(owner, 'patch', `/organizations/${org}/members/${alice.userId}`, { role: 'emperor' }).expect(400)).body.code).toBe('ROLE_UNKNOWN');
    expect((await t.call(owner, 'patch', `/organizations/${org}/members/${stranger.userId}`, { role: 'member' }).expect(404)).body.code).toBe('NOT_FOUND');
    const member = await t.user('member@example.io');
    await t.join(owner, org, member, 'member');
    expect((await t.call(member, 'patch', `/organizations/${org}/members/${alice.userId}`, { role: 'member' }).expect(403)).body.code).toBe('PERMISSION_DENIED');
    // An admin cannot make someone owner: owner grants organization:delete, which admin lacks.
    expect((await t.call(alice, 'patch', `/organizations/${org}/members/${member.userId}`, { role: 'owner' }).expect(403)).body.code).toBe('PERMISSION_DENIED');
    expect((await t.call(alice, 'get', `/organizations/${org}`).expect(200)).body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin', 'member']);
  });

  it('DELETE /organizations/{id}/members/{userId}: 204 with members:remove, or the caller leaving; 403 for a member removing another; svc.organization.member_removed', async () => {
    await t.join(owner, org, alice, 'member');
    const bob = await t.user('bob@example.io');
    await t.join(owner, org, bob, 'member');
    expect((await t.call(alice, 'delete', `/organizations/${org}/members/${bob.userId}`).expect(403)).body.code).toBe('PERMISSION_DENIED');
    await t.call(alice, 'delete', `/organizations/${org}/members/${alice.userId}`).expect(204);
    await t.call(owner, 'delete', `/organizations/${org}/members/${bob.userId}`).expect(204);
    const events = await t.events.waitFor('svc.organization.member_removed', 2);
    expect(events).toEqual([
      { organizationId: org, userId: alice.userId, actorId: alice.userId },
      { organizationId: org, userId: bob.userId, actorId: owner.userId },
    ]);
    expect((await t.call(alice, 'get', `/organizations/${org}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.call(owner, 'delete', `/organizations/${org}/members/${bob.userId}`).expect(404)).body.code).toBe('NOT_FOUND');
  });

  it('POST /organizations/{id}/activate: 204 (session) or 200 token body (jwt) for a member; 404 otherwise', async () => {
    const response = await t.activate(owner, org);
    if (credential === 'session') expect([response.status, response.text]).toEqual([204, '']);
    else expect([response.status, response.body]).toEqual([200, { access_token: expect.any(String), token_type: 'bearer', expires_in: 600 }]);
    expect((await t.call(stranger, 'post', `/organizations/${org}/activate`).expect(404)).body.code).toBe('NOT_FOUND');
  });
});

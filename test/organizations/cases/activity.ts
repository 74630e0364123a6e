import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createOrgApp, type OrgApp } from '../organizations-kit.js';

// docs/guides/account-security.md, "Activity log": every membership change has its entry, written in
// the change's transaction, about the member it concerns, with the administrator as its actor.
// The entries' rows: behaviour, on SQLite.
describe.each(BEHAVIOUR_ENGINES)('the activity log of organizations on %s', (engine) => {
  let t: OrgApp;
  beforeAll(async () => {
    t = await createOrgApp(engine, 'session', { audit: {} });
  });
  afterAll(() => t?.close());

  it('records creation, invitation and its revocation, joining, a change of role, a removal and the deletion', async () => {
    const owner = await t.user('audit-owner@example.io');
    const alice = await t.user('audit-alice@example.io');
    // A second between the changes orders the entries as they were made.
    const later = () => t.clock.advance(1000);
    const org = await t.organization(owner, 'audited');
    later();
    const bobInvitation = await t.call(owner, 'post', `/organizations/${org}/invitations`, { email: 'bob@example.io', role: 'member' }).expect(201);
    later();
    await t.call(owner, 'delete', `/organizations/${org}/invitations/${bobInvitation.body.id as string}`).expect(204);
    later();
    const token = await t.invite(owner, org, alice.email, 'member');
    later();
    await t.call(alice, 'post', '/organizations/invitations/accept', { token }).expect(200);
    later();
    await t.call(owner, 'patch', `/organizations/${org}/members/${alice.userId}`, { role: 'admin' }).expect(204);
    later();
    await t.call(alice, 'delete', `/organizations/${org}/members/${alice.userId}`).expect(204);
    later();
    await t.call(owner, 'delete', `/organizations/${org}`).expect(204);

    await t.afterResponses();
    const rows: { user_id: string; actor_id: string | null; action: string; details: string }[] = await t.dataSource.query(
      "SELECT user_id, actor_id, action, details FROM auth_audit_events WHERE action LIKE 'organization%' ORDER BY at, id",
    );
    const entries = rows.map((row) => ({ user: row.user_id, actor: row.actor_id, action: row.action, details: JSON.parse(row.details) as Record<string, unknown> }));
    expect(entries).toEqual([
      { user: owner.userId, actor: null, action: 'organization_created', details: { organizationId: org, slug: 'audited' } },
      { user: owner.userId, actor: null, action: 'organization_invitation_created', details: { organizationId: org, invitationId: bobInvitation.body.id, email: 'bob@example.io', role: 'member' } },
      { user: owner.userId, actor: null, action: 'organization_invitation_revoked', details: { organizationId: org, invitationId: bobInvitation.body.id } },
      { user: owner.userId, actor: null, action: 'organization_invitation_created', details: expect.objectContaining({ email: 'audit-alice@example.io', role: 'member' }) },
      { user: alice.userId, actor: null, action: 'organization_member_added', details: expect.objectContaining({ organizationId: org, role: 'member' }) },
      { user: alice.userId, actor: owner.userId, action: 'organization_member_role_changed', details: { organizationId: org, from: 'member', to: 'admin' } },
      { user: alice.userId, actor: null, action: 'organization_member_removed', details: { organizationId: org, role: 'admin' } },
      { user: owner.userId, actor: null, action: 'organization_deleted', details: { organizationId: org, slug: 'audited' } },
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, type AuthOptions } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { InvitationMailbox, ORG_POLICY, OrgProjectsController } from '../../organizations/organizations-kit.js';
import { type ClientApp, createClientApp } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, organizations and requests to the application, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential, { organizations: ORG_POLICY } as Partial<AuthOptions>, { controllers: [OrgProjectsController], providers: [InvitationMailbox] });
  });
  afterAll(() => app.close());

  it('creates an organization, invites, the invited user accepts and activates it (the credential then acts in it), leaves', async () => {
    const owner = await app.signedUp('owner@client.test');
    const created = await owner.client.organizations.create('Acme', 'acme');
    expect(created).toMatchObject({ name: 'Acme', slug: 'acme', role: 'owner' });
    await expect(owner.client.organizations.create('Acme again', 'acme')).rejects.toMatchObject({ code: 'ORGANIZATION_SLUG_TAKEN', status: 409 });
    const invitation = await owner.client.organizations.invite(created.id, 'member@client.test', 'member');
    expect(invitation).toMatchObject({ email: 'member@client.test', role: 'member' });
    const [mail] = (await app.delivered(AuthEvent.OrganizationInvitationMail)).filter((one) => one.to === 'member@client.test');

    const member = await app.signedUp('member@client.test');
    await expect(member.client.organizations.acceptInvitation(mail.token)).resolves.toMatchObject({ id: created.id, role: 'member' });
    expect(await member.client.organizations.list()).toEqual([expect.objectContaining({ id: created.id, role: 'member' })]);
    await member.client.organizations.activate(created.id);
    await expect(member.client.me()).resolves.toMatchObject({ organization: expect.objectContaining({ id: created.id }) });
    const details = await owner.client.organizations.get(created.id);
    expect(details.members.map((one) => one.email).sort()).toEqual(['member@client.test', 'owner@client.test']);

    const { id: memberId } = await member.client.me();
    await member.client.organizations.removeMember(created.id, memberId);
    await expect(member.client.organizations.get(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it("fetch: a request to the application's own route carries the credential (after activate, the organization's too); after logout, none", async () => {
    const { client } = await app.signedUp('fetch@client.test');
    // Acting in no organization: the route behind @OrgPermissions refuses.
    const outside = await client.fetch('/org-projects');
    expect(outside.status).toBe(403);
    const { id } = await client.organizations.create('Fetch', 'fetch');
    await client.organizations.activate(id);
    const inside = await client.fetch('/org-projects', { headers: { Accept: 'application/json' } });
    expect(inside.status).toBe(200);
    expect(await inside.json()).toEqual({ organizationId: id });
    await client.logout();
    expect((await client.fetch('/org-projects')).status).toBe(401);
  });
});

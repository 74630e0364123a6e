import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, escapeHtml } from '#svc/auth';
import { recordingTransport } from '../../account-security-mail/mail-kit.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createOrgApp, type OrgApp } from '../organizations-kit.js';

// docs/guides/account-security.md, "svc's own mail": with the mail section, svc mails an invitation
// (kind organization_invitation) with its ready link, text and HTML, the organization's name escaped.
describe.each(BEHAVIOUR_ENGINES)('the invitation mail of the mail section on %s', (engine) => {
  let t: OrgApp;
  const mail = recordingTransport();
  beforeAll(async () => {
    t = await createOrgApp(engine, 'session', { mail: { transport: mail.transport, from: 'svc tests <no-reply@app.test>' } });
  });
  afterAll(() => t?.close());

  it('sends the invited address the link of the invitation_mail event, naming the organization and the role', async () => {
    const owner = await t.user('mail-owner@example.io');
    const org = (await t.call(owner, 'post', '/organizations', { name: 'Acme <R&D>', slug: 'acme-rd' }).expect(201)).body.id as string;
    await t.call(owner, 'post', `/organizations/${org}/invitations`, { email: 'newcomer@example.io', role: 'member' }).expect(201);
    const [invitation] = await t.events.waitFor(AuthEvent.OrganizationInvitationMail);
    await t.afterResponses();
    const [sent] = mail.sentTo('newcomer@example.io');
    expect(sent.subject).toBe('You are invited to Acme <R&D>');
    expect(sent.text).toContain(invitation.link);
    expect(sent.text).toContain('as member');
    expect(sent.html).toContain(`href="${escapeHtml(invitation.link)}"`);
    expect(sent.html).toContain('Acme &lt;R&amp;D&gt;');
    expect(sent.html).not.toContain('Acme <R&D>');
  });
});

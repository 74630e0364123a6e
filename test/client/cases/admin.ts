import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, administration, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential);
  });
  afterAll(() => app.close());

  it('lists and reads users, grants and revokes roles, deactivates and activates, ends sessions, mails a reset and deletes', async () => {
    const admin = await app.signedUp('admin@client.test', ['admin']);
    const member = await app.signedUp('member@client.test');
    const memberId = (await member.client.me()).id;
    await expect(member.client.admin.listUsers()).rejects.toMatchObject({ code: 'PERMISSION_DENIED', status: 403 });

    const page = await admin.client.admin.listUsers({ query: 'member@', limit: 5 });
    expect(page).toEqual({ users: [expect.objectContaining({ id: memberId, email: 'member@client.test', isActive: true })], nextCursor: null });
    await expect(admin.client.admin.user(memberId)).resolves.toMatchObject({ id: memberId, loginMethods: { password: true, identities: [] }, mfa: { totp: false }, sessions: 1 });

    await admin.client.admin.grantRole(memberId, 'admin');
    await expect(admin.client.admin.grantRole(memberId, 'emperor')).rejects.toMatchObject({ code: 'ROLE_UNKNOWN', status: 400 });
    await expect(member.client.me()).resolves.toMatchObject({ roles: ['admin', 'member'] });
    await admin.client.admin.revokeRole(memberId, 'admin');
    await expect(admin.client.admin.revokeRole(memberId, 'admin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const adminId = (await admin.client.me()).id;
    await expect(admin.client.admin.revokeRole(adminId, 'admin')).rejects.toMatchObject({ code: 'LAST_ADMIN', status: 409 });

    await admin.client.admin.deactivate(memberId, 'a test');
    await expect(member.client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(member.client.getSnapshot()).toEqual({ status: 'signed-out' });
    await expect(member.client.login('member@client.test', PASSWORD)).rejects.toMatchObject({ code: 'USER_INACTIVE', status: 403 });
    await admin.client.admin.activate(memberId);
    await member.client.login('member@client.test', PASSWORD);
    await admin.client.admin.revokeSessions(memberId);
    await expect(member.client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    await admin.client.admin.sendPasswordReset(memberId);
    expect((await app.delivered(AuthEvent.PasswordResetRequested)).filter((mail) => mail.user.id === memberId)).toHaveLength(1);
    await admin.client.admin.deleteUser(memberId);
    await expect(admin.client.admin.user(memberId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('impersonates a user (this client then holds their credential, marked) and stops (signed out)', async () => {
    await app.signedUp('boss@client.test', ['admin']);
    const target = await app.signedUp('target@client.test');
    const targetId = (await target.client.me()).id;
    // A separate page of the administrator's: the impersonated credential replaces the one it held.
    const desk = app.person();
    await desk.client.login('boss@client.test', PASSWORD);
    const bossId = (await desk.client.me()).id;
    await expect(desk.client.admin.impersonate(targetId)).resolves.toMatchObject({ id: targetId, impersonatedBy: bossId });
    expect(desk.client.getSnapshot()).toMatchObject({ status: 'signed-in', user: { id: targetId, impersonatedBy: bossId } });
    await expect(desk.client.changePassword(PASSWORD, 'not while impersonating')).rejects.toMatchObject({ code: 'IMPERSONATION_RESTRICTED', status: 403 });
    await desk.client.admin.stopImpersonation();
    expect(desk.client.getSnapshot()).toEqual({ status: 'signed-out' });
    await expect(desk.client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(desk.client.admin.stopImpersonation()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AuthService } from '#svc/auth';
import { addAuthToDocument } from '#svc/auth/openapi';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { type AccountApp, type Browser, createAccountApp, engineCredentialPairs, eventBodyOf, LOOPBACK, PASSWORD, USER_AGENT, USER_TABLES } from '../account-security-mail-kit.js';

// docs/guides/account-security.md, "Deleting one's account": DELETE /me deletes the user and every
// row of theirs (counted table by table), clears the credential's cookie, announces
// svc.user.deleted and the account_deleted notice; refused while impersonating and for the last
// holder of users:roles; in the OpenAPI document beside GET /me. Behaviour whatever the engine (no
// concurrent request here): SQLite, with each credential.
const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);

describe.each(PAIRS)('DELETE /me on %s with the %s credential', (engine, credential) => {
  let app: AccountApp;
  let auth: AuthService;
  const credentialCookie = credential === 'session' ? 'svc_session' : 'svc_refresh';

  beforeAll(async () => {
    app = await createAccountApp(engine, credential, { emailVerification: {} });
    auth = app.app.get(AuthService);
  });
  beforeEach(() => app.reset());
  afterAll(() => app?.close());

  /** A user with a row in every table that can hold one: two devices, a reset link, a change of email pending, two-step login, a passkey, a role. */
  async function busyUser(email: string): Promise<{ browser: Browser; userId: string; other: Browser }> {
    const { browser, userId } = await app.signedUp(email);
    await app.afterResponses();
    const verification = app.events.payloadsOf('svc.email.verification_requested').find((event) => event.user.id === userId)!;
    expect((await browser.send('post', '/auth/verify-email', { token: verification.token })).status).toBe(204);
    const other = app.browser();
    expect((await other.send('post', '/auth/login', { email, password: PASSWORD })).status).toBe(200);
    expect((await browser.send('post', '/auth/forgot-password', { email })).status).toBe(202);
    expect((await browser.send('post', '/auth/change-email', { newEmail: `new-${email}`, password: PASSWORD })).status).toBe(202);
    await app.enableTotp(browser);
    expect((await browser.register()).answer.status).toBe(201);
    await auth.grantRole(userId, 'member');
    await app.afterResponses();
    return { browser, userId, other };
  }

  it('deletes the user and every row of theirs, nobody else’s; clears the cookie; both devices are signed out', async () => {
    const { browser, userId, other } = await busyUser('leaving@x.io');
    const bystander = await busyUser('staying@x.io');
    const before = await app.rowCounts(userId);
    const bystanderBefore = await app.rowCounts(bystander.userId);
    // Every table that can hold a row of the user holds one (the credential's own tables only), so the count after proves something.
    const expected = USER_TABLES.filter((table) => table !== 'oauth_accounts' && (credential === 'session' ? !table.startsWith('refresh_') : table !== 'sessions'));
    for (const table of expected) expect([table, before[table]]).toEqual([table, expect.any(Number)]), expect(before[table]).toBeGreaterThan(0);

    const answer = await browser.send('delete', '/auth/me');
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const cleared = cookiesOf(answer)[credentialCookie];
    expect(cleared.value).toBe('');
    expect(cleared.attributes.some((attribute) => /^Expires=Thu, 01 Jan 1970/i.test(attribute) || attribute === 'Max-Age=0')).toBe(true);

    expect(await app.rowCounts(userId)).toEqual(Object.fromEntries(USER_TABLES.map((table) => [table, 0])));
    expect(await app.rowCounts(bystander.userId)).toEqual(bystanderBefore);
    expect((await browser.me()).status).toBe(401);
    expect((await other.me()).status).toBe(401);
    if (credential === 'jwt') expect((await other.send('post', '/auth/refresh')).status).toBe(401);
    expect((await bystander.browser.me()).status).toBe(200);
    expect((await app.browser().send('post', '/auth/login', { email: 'leaving@x.io', password: PASSWORD })).body.code).toBe('INVALID_CREDENTIALS');
  });

  it('announces svc.user.deleted (the user their own actor) and the account_deleted notice to the former address, nothing secret', async () => {
    const { browser, userId } = await app.signedUp('gone@x.io');
    const me = (await browser.me()).body;
    expect((await browser.send('delete', '/auth/me')).status).toBe(204);
    expect(await app.events.waitFor('svc.user.deleted')).toEqual([{ userId, actorId: userId }]);
    const notices = await app.notices();
    expect(notices).toEqual([{ user: eventBodyOf(me), notice: 'account_deleted', ip: LOOPBACK, userAgent: USER_AGENT }]);
    expect(notices[0].user.email).toBe('gone@x.io');
  });

  it('answers 401 without a credential, and a second time (the account is gone)', async () => {
    expect((await app.browser().send('delete', '/auth/me')).status).toBe(401);
    const { browser } = await app.signedUp('twice@x.io');
    const held = new Map(browser.cookies);
    const bearer = browser.bearer;
    expect((await browser.send('delete', '/auth/me')).status).toBe(204);
    browser.cookies.clear();
    for (const [name, value] of held) browser.cookies.set(name, value);
    browser.bearer = bearer;
    const again = await browser.send('delete', '/auth/me');
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('UNAUTHENTICATED');
  });

  it('refuses the last active holder of users:roles (409 LAST_ADMIN), nothing deleted; once another administrator exists, deletes', async () => {
    const { browser, userId } = await app.signedUp('root@x.io');
    await auth.grantRole(userId, 'admin');
    const refused = await browser.send('delete', '/auth/me');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LAST_ADMIN');
    expect(cookiesOf(refused)[credentialCookie]).toBeUndefined();
    expect((await app.rowCounts(userId)).users).toBe(1);
    expect((await browser.me()).status).toBe(200);
    await app.afterResponses();
    expect(app.events.payloadsOf('svc.user.deleted')).toEqual([]);
    expect(app.events.payloadsOf('svc.security.notice')).toEqual([]);
    const successor = await app.signedUp('successor@x.io');
    await auth.grantRole(successor.userId, 'admin');
    expect((await browser.send('delete', '/auth/me')).status).toBe(204);
  });

  it('refuses an administrator acting as the user (403 IMPERSONATION_RESTRICTED): the account stays', async () => {
    const admin = await app.signedUp('admin@x.io');
    await auth.grantRole(admin.userId, 'admin');
    const alice = await app.signedUp('alice@x.io');
    expect((await admin.browser.send('post', `/auth/admin/users/${alice.userId}/impersonate`)).status).toBe(200);
    expect((await admin.browser.me()).body.id).toBe(alice.userId);
    const refused = await admin.browser.send('delete', '/auth/me');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('IMPERSONATION_RESTRICTED');
    expect((await app.rowCounts(alice.userId)).users).toBe(1);
    expect((await alice.browser.me()).status).toBe(200);
  });

  // The document of this application: its routes as mounted, with the credential's security and DELETE /me's refusals.
  it('is documented with 204 and the refusals 401, 403 (IMPERSONATION_RESTRICTED) and 409 (LAST_ADMIN)', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(app.app, new DocumentBuilder().build()), app.app);
    const item = document.paths['/auth/me'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get']);
    const operation = item.delete!;
    expect(operation.security).toEqual(item.get!.security);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['204', '401', '403', '409']));
    const codesOf = (status: string) => JSON.stringify(operation.responses[status]);
    expect(codesOf('403')).toContain('IMPERSONATION_RESTRICTED');
    expect(codesOf('409')).toContain('LAST_ADMIN');
  });
});

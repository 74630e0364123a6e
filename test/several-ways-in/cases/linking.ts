import { Injectable } from '@nestjs/common';
import { AuthEvent, type AuthHooks, HookAbort, type OAuthLoginPayload } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { addAccount, createSeveralWaysApp, PASSWORD, type SeveralWaysApp } from '../several-ways-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('a password, an oidc and an oauth2 provider in one module, on %s with the %s credential', (engine, credential) => {
  let app: SeveralWaysApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    app = await createSeveralWaysApp({
      engine,
      credential,
      logger,
      // The demo's mapping: the provider's name becomes the display name (1..64 characters), and nothing else.
      mapProfileToColumns: (profile) => ({ displayName: profile.name, plan: 'pro' }),
    });
  });
  afterAll(() => app.close());

  const linksOf = async (userId: unknown) => (await app.rows('oauth_accounts')).filter((row) => row.user_id === userId).map((row) => row.provider).sort();

  it('serves every route of the password and both provider methods, and the linking routes', async () => {
    const browser = app.browser();
    expect((await browser.signup('routes@x.io')).status).toBe(201);
    expect((await browser.me()).status).toBe(200);
    expect((await browser.send('POST', '/auth/forgot-password', { email: 'routes@x.io' })).status).toBe(202);
    expect((await browser.agent.request(`${app.url}/auth/oidc/op/login`)).status).toBe(302);
    expect((await browser.agent.request(`${app.url}/auth/oauth2/acme/login`)).status).toBe(302);
    expect((await browser.accounts()).body).toEqual({ password: true, identities: [] });
    expect((await browser.send('POST', '/auth/refresh')).status).toBe(credential === 'jwt' ? 200 : 404);
  });

  it('links an oidc and an oauth2 identity to a password account; lists them; each links to that user only', async () => {
    addAccount(app, 'linker-1', { email: 'someone-else@provider.test', email_verified: false, name: 'Linker One' });
    const browser = app.browser();
    const signup = await browser.signup('linker@x.io');
    expect(signup.status).toBe(201);
    const { body: me } = await browser.me();

    const linked = await browser.link('oidc', 'linker-1');
    expect(linked.status).toBe(302);
    expect(linked.headers.get('location')).toBe('/');
    // No new credential: the one the browser holds stays valid.
    expect(linked.headers.getSetCookie().filter((line) => /^svc_(session|refresh)=/.test(line))).toEqual([]);
    app.clock.advance(1000);
    expect((await browser.link('oauth2', 'linker-1')).status).toBe(302);

    const { status, body } = await browser.accounts();
    expect(status).toBe(200);
    expect(body).toEqual({
      password: true,
      identities: [
        { method: 'oidc', provider: 'op', email: 'someone-else@provider.test', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        { method: 'oauth2', provider: 'acme', email: 'someone-else@provider.test', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      ],
    });
    expect(await linksOf(me.id)).toEqual(['acme', 'op']);
    const events = await app.events.waitFor(AuthEvent.AccountLinked, 2);
    expect(events.filter((event) => (event.user as { id: string }).id === me.id)).toEqual([
      { user: me, method: 'oidc', provider: 'op' },
      { user: me, method: 'oauth2', provider: 'acme' },
    ]);
    // A link needs no verified email, and changes nothing of the account's own email.
    expect((await browser.me()).body.email).toBe('linker@x.io');
  });

  it('a login through a linked identity lands on the same user; svc.login.after names the strategy (the method for a provider, the credential for a password), the method, the provider and the credential', async () => {
    addAccount(app, 'returning', { email: 'returning@provider.test', email_verified: true, name: 'Returning' });
    const first = app.browser();
    await first.signup('returning@x.io');
    const { body: me } = await first.me();
    expect((await first.link('oidc', 'returning')).status).toBe(302);
    expect((await first.link('oauth2', 'returning')).status).toBe(302);

    for (const method of ['oidc', 'oauth2'] as const) {
      const later = app.browser();
      const response = await later.signInWith(method, 'returning');
      expect(response.status).toBe(302);
      expect((await later.me()).body).toEqual(me);
      const provider = method === 'oidc' ? 'op' : 'acme';
      await app.events.waitFor(AuthEvent.LoginAfter);
      await app.afterResponses();
      expect(app.events.payloadsOf(AuthEvent.LoginAfter)).toContainEqual({ user: me, strategy: method, method, provider, credential });
    }
    const password = app.browser();
    expect((await password.login('returning@x.io')).status).toBe(200);
    await app.afterResponses();
    expect(app.events.payloadsOf(AuthEvent.LoginAfter)).toContainEqual({ user: me, strategy: credential, method: 'password', credential });
    // The method's own event fires too.
    expect(app.events.payloadsOf(AuthEvent.OidcLoginAfter).map((event) => event.user)).toContainEqual(me);
  });

  it('an identity linked to another user: 409 OAUTH_ACCOUNT_LINKED_ELSEWHERE (JSON for oidc, a redirect for oauth2), nothing written', async () => {
    const owner = app.browser();
    await owner.signup('owner@x.io');
    expect((await owner.link('oidc', 'shared')).status).toBe(302);
    expect((await owner.link('oauth2', 'shared')).status).toBe(302);

    const other = app.browser();
    await other.signup('other@x.io');
    const { body: otherMe } = await other.me();
    const json = await other.link('oidc', 'shared');
    expect(json.status).toBe(409);
    expect(await json.json()).toMatchObject({ statusCode: 409, code: 'OAUTH_ACCOUNT_LINKED_ELSEWHERE' });
    const redirected = await other.link('oauth2', 'shared');
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('/?error=OAUTH_ACCOUNT_LINKED_ELSEWHERE');
    expect(await linksOf(otherMe.id)).toEqual([]);
  });

  it('a second identity at a provider the user has one at: 409 OAUTH_PROVIDER_ALREADY_LINKED; the same identity again: linked once', async () => {
    const browser = app.browser();
    await browser.signup('twice@x.io');
    const { body: me } = await browser.me();
    expect((await browser.link('oidc', 'twice-a')).status).toBe(302);
    expect((await browser.link('oidc', 'twice-a')).status).toBe(302);
    const again = app.browser();
    await again.login('twice@x.io');
    const refused = await again.link('oidc', 'twice-b');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'OAUTH_PROVIDER_ALREADY_LINKED' });
    expect((await app.rows('oauth_accounts')).filter((row) => row.user_id === me.id).map((row) => row.provider_user_id)).toEqual(['twice-a']);
  });

  it('no takeover without a link: a provider login with the email of a password account is 409; linked first, it signs that account in', async () => {
    addAccount(app, 'bea', { email: 'bea@x.io', email_verified: true, name: 'Bea' });
    const owner = app.browser();
    await owner.signup('bea@x.io');
    const { body: me } = await owner.me();
    const users = (await app.rows('users')).length;

    const stranger = app.browser();
    const refused = await stranger.signInWith('oidc', 'bea');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'OAUTH_ACCOUNT_NOT_LINKED' });
    const redirected = await app.browser().signInWith('oauth2', 'bea');
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('/?error=OAUTH_ACCOUNT_NOT_LINKED');
    expect((await app.rows('users')).length).toBe(users);

    expect((await owner.link('oidc', 'bea')).status).toBe(302);
    const later = app.browser();
    expect((await later.signInWith('oidc', 'bea')).status).toBe(302);
    expect((await later.me()).body.id).toBe(me.id);
  });

  it('a link flow is finished only by the session of the user who started it', async () => {
    const browser = app.browser();
    await browser.signup('starter@x.io');
    const { body: starter } = await browser.me();
    const callback = await browser.walkToLinkCallback('oidc', 'bound-identity');
    // The same browser, now signed in as somebody else: the state cookie is still there.
    await browser.logout();
    await browser.signup('intruder@x.io');
    const { body: intruder } = await browser.me();
    const refused = await browser.agent.request(callback);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'OAUTH_STATE_INVALID' });
    // Signed out altogether, it is refused too.
    const anonymous = app.browser();
    const start = await browser.send('POST', '/auth/oidc/op/link', {});
    const { url } = (await start.json()) as { url: string };
    const { callbackUrl } = await browser.agent.walkToCallback(url, { app: app.url, login: 'bound-identity' });
    const stateCookie = browser.agent.jar.get(app.url + '/auth/', 'svc_oauth_state')!;
    anonymous.agent.jar.set(app.url, 'svc_oauth_state', stateCookie.value, { path: '/auth' });
    const noSession = await anonymous.agent.request(callbackUrl);
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ code: 'OAUTH_STATE_INVALID' });
    expect(await linksOf(starter.id)).toEqual([]);
    expect(await linksOf(intruder.id)).toEqual([]);
  });

  it('unlinks an identity (svc.account.unlinked); never the last way in: 409 LAST_LOGIN_METHOD; an unknown link is 404', async () => {
    addAccount(app, 'only-provider', { email: 'only-provider@x.io', email_verified: true, name: 'Only Provider' });
    const browser = app.browser();
    expect((await browser.signInWith('oidc', 'only-provider')).status).toBe(302);
    const { body: me } = await browser.me();
    expect((await browser.accounts()).body).toMatchObject({ password: false, identities: [{ method: 'oidc', provider: 'op' }] });

    const last = await browser.unlink('oidc');
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ statusCode: 409, code: 'LAST_LOGIN_METHOD' });
    const unknown = await browser.unlink('oauth2');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await browser.send('DELETE', '/auth/accounts/oidc/nonexistent')).status).toBe(404);
    for (const path of ['/auth/accounts/oauth2/acme', '/auth/accounts/oidc/nonexistent', '/auth/accounts/oauth2/op']) {
      const refused = await browser.send('DELETE', path);
      expect([path, refused.status, await refused.json()]).toEqual([path, 404, { statusCode: 404, error: 'Not Found', message: 'No such linked identity', code: 'NOT_FOUND' }]);
    }

    expect((await browser.link('oauth2', 'only-provider')).status).toBe(302);
    expect((await browser.unlink('oidc')).status).toBe(204);
    expect(await linksOf(me.id)).toEqual(['acme']);
    const [event] = (await app.events.waitFor(AuthEvent.AccountUnlinked)).filter((payload) => (payload.user as { id: string }).id === me.id);
    expect(event).toEqual({ user: me, method: 'oidc', provider: 'op' });
    expect((await browser.unlink('oauth2')).status).toBe(409);
    // The unlinked identity no longer signs this user in: it would create a user, and the email is taken.
    expect((await app.browser().signInWith('oidc', 'only-provider')).status).toBe(409);
  });

  it('a provider or method that is not valid percent-encoding in any path: 400 VALIDATION_FAILED with the error body, nothing unlinked', async () => {
    addAccount(app, 'undecodable', { email: 'undecodable@x.io', email_verified: true, name: 'Undecodable' });
    const browser = app.browser();
    expect((await browser.signup('undecodable@x.io')).status).toBe(201);
    expect((await browser.link('oidc', 'undecodable')).status).toBe(302);
    const calls: [string, string, unknown?][] = [
      ['GET', '/auth/oidc/%ZZ/login'],
      ['GET', '/auth/oauth2/%ZZ/login'],
      ['GET', '/auth/oidc/%ZZ/callback?code=c&state=s'],
      ['GET', '/auth/oauth2/%E0%A4%A/callback?code=c&state=s'],
      ['POST', '/auth/oidc/%ZZ/link', {}],
      ['POST', '/auth/oauth2/%ZZ/link', {}],
      ['DELETE', '/auth/accounts/%ZZ/op'],
      ['DELETE', '/auth/accounts/oidc/%ZZ'],
    ];
    for (const [method, path, body] of calls) {
      const refused = await browser.send(method, path, body);
      expect([method, path, refused.status, await refused.json()]).toEqual([
        method,
        path,
        400,
        { statusCode: 400, error: 'Bad Request', message: ['path: a parameter is not valid percent-encoding'], code: 'VALIDATION_FAILED' },
      ]);
    }
    expect((await browser.accounts()).body).toMatchObject({ password: true, identities: [{ method: 'oidc', provider: 'op' }] });
  });

  it('a user created by a provider has no password until a reset sets one through forgot-password', async () => {
    addAccount(app, 'resetter', { email: 'resetter@x.io', email_verified: true, name: 'Resetter' });
    const browser = app.browser();
    expect((await browser.signInWith('oauth2', 'resetter')).status).toBe(302);
    expect((await browser.login('resetter@x.io')).status).toBe(401);
    expect((await app.browser().send('POST', '/auth/forgot-password', { email: 'resetter@x.io' })).status).toBe(202);
    await app.afterResponses();
    const [mail] = app.events.payloadsOf(AuthEvent.PasswordResetRequested).filter((event) => (event.user as { email: string }).email === 'resetter@x.io');
    expect((await app.browser().send('POST', '/auth/reset-password', { token: mail.token, password: PASSWORD })).status).toBe(204);
    const withPassword = app.browser();
    expect((await withPassword.login('resetter@x.io')).status).toBe(200);
    expect((await withPassword.accounts()).body).toMatchObject({ password: true, identities: [{ provider: 'acme' }] });
  });

  it('maps the profile of a first provider login to the application columns; a value that breaks their rules is left out and logged', async () => {
    addAccount(app, 'named', { email: 'named@x.io', email_verified: true, name: 'Named Person' });
    addAccount(app, 'long-named', { email: 'long-named@x.io', email_verified: true, name: 'L'.repeat(65) });
    const named = app.browser();
    expect((await named.signInWith('oidc', 'named')).status).toBe(302);
    expect((await named.me()).body).toMatchObject({ email: 'named@x.io', displayName: 'Named Person', plan: 'free' });
    const long = app.browser();
    expect((await long.signInWith('oauth2', 'long-named')).status).toBe(302);
    expect((await long.me()).body).toMatchObject({ email: 'long-named@x.io', displayName: null, plan: 'free' });
    expect(logger.matching('warn', 'OAuth provider acme, mapProfileToColumns: "plan", "displayName" left out')).toHaveLength(1);
    expect(JSON.stringify(logger.lines)).not.toContain('L'.repeat(65));
  });

  it('callback errors of the oauth2 section redirect to /?error=<CODE>; the oidc section answers JSON', async () => {
    const cancelled = await app.browser().signInWith('oauth2', 'whoever', 'cancel');
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe('/?error=OAUTH_PROVIDER_ERROR');
    const noState = await app.browser().agent.request(`${app.url}/auth/oauth2/acme/callback?code=x&state=y`);
    expect(noState.status).toBe(303);
    expect(noState.headers.get('location')).toBe('/?error=OAUTH_STATE_INVALID');
    const json = await app.browser().signInWith('oidc', 'whoever', 'cancel');
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: 'OAUTH_PROVIDER_ERROR' });
  });

  it('the link route needs the credential and a known provider; its body may be empty or {} only', async () => {
    const anonymous = await app.browser().send('POST', '/auth/oidc/op/link', {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const browser = app.browser();
    await browser.signup('link-rules@x.io');
    const unknown = await browser.send('POST', '/auth/oidc/nowhere/link', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'OAUTH_PROVIDER_UNKNOWN' });
    const extra = await browser.send('POST', '/auth/oidc/op/link', { provider: 'acme' });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const empty = await browser.send('POST', '/auth/oauth2/acme/link');
    expect(empty.status).toBe(200);
    expect(new URL(((await empty.json()) as { url: string }).url).origin).toBe(new URL(app.acme.issuer).origin);
  });
});

/** Refuses to link identities whose login name starts with "refused", and remembers what it saw. */
@Injectable()
class LinkHooks implements AuthHooks {
  static readonly seen: OAuthLoginPayload[] = [];

  beforeOAuthLogin(payload: OAuthLoginPayload): OAuthLoginPayload {
    LinkHooks.seen.push(payload);
    if (payload.link && payload.userInfo.providerUserId.startsWith('refused')) throw new HookAbort('Not this identity', 422);
    return payload;
  }
}

describe('beforeOAuthLogin sees a link like a login, with the user who links', () => {
  let app: SeveralWaysApp;
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine: 'sqlite', credential: 'session', hooks: LinkHooks });
  });
  afterAll(() => app.close());

  it('is told who links, and may refuse: 422 HOOK_ABORTED, nothing written', async () => {
    const browser = app.browser();
    await browser.signup('hooked@x.io');
    const { body: me } = await browser.me();
    expect((await browser.link('oidc', 'accepted')).status).toBe(302);
    const refused = await browser.link('oauth2', 'refused-identity');
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/?error=HOOK_ABORTED');
    expect((await app.rows('oauth_accounts')).map((row) => row.provider_user_id)).toEqual(['accepted']);
    expect(LinkHooks.seen).toEqual([
      { provider: 'op', userInfo: { provider: 'op', providerUserId: 'accepted', email: null, emailVerified: false, name: null, avatarUrl: null }, link: { user: me } },
      { provider: 'acme', userInfo: expect.objectContaining({ providerUserId: 'refused-identity' }), link: { user: me } },
    ]);
    // A login through the linked identity is a login: no `link`.
    expect((await app.browser().signInWith('oidc', 'accepted')).status).toBe(302);
    expect(LinkHooks.seen.at(-1)).toEqual({ provider: 'op', userInfo: expect.objectContaining({ providerUserId: 'accepted' }) });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { AuthEvent, type AuthHooks, HookAbort, type OAuthLoginPayload } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent, type OidcProviderHarness } from '../../support/oauth/index.js';
import { credentialCookieOf, errorOf, setCookies, writtenRows } from '../../support/oauth-app-responses.js';
import { TestClock } from '../../support/test-app.js';
import { CLIENT_ID, createOidcApp, type OidcApp, PROVIDER } from '../oidc-kit.js';

const MATRIX = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

@Injectable()
class RefuseDave implements AuthHooks {
  beforeOAuthLogin(payload: OAuthLoginPayload): OAuthLoginPayload {
    if (payload.userInfo.providerUserId === 'dave') throw new HookAbort('Dave may not sign in');
    return payload;
  }
}

/** Login through oidc-provider (the certified OpenID Provider), its real login and consent forms. */
describe.each(MATRIX)('oidc login on %s with the %s credential', (engine, credential) => {
  let app: OidcApp<OidcProviderHarness>;
  const clock = new TestClock();
  beforeAll(async () => {
    app = await createOidcApp({ engine, credential, clock, hooks: RefuseDave });
  });
  afterAll(() => app?.close());

  async function me(agent: BrowserAgent): Promise<Response> {
    if (credential === 'session') return agent.request(`${app.url}/auth/me`);
    const refreshed = await agent.request(`${app.url}/auth/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    return agent.request(`${app.url}/auth/me`, { headers: { authorization: `Bearer ${access_token}` } });
  }

  async function expectRefused(response: Response, status: number, code: string, before: number): Promise<void> {
    expect(await errorOf(response)).toMatchObject({ status, code });
    expect(credentialCookieOf(response)).toBeUndefined();
    expect(setCookies(response).svc_oauth_state?.value).toBe('');
    expect(await writtenRows(app)).toBe(before);
  }

  it('sends openid scope, state, nonce and PKCE S256, and keeps the nonce in the signed state cookie', async () => {
    const response = await new BrowserAgent().request(app.loginUrl());
    const location = new URL(response.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${app.url}/auth/oidc/${PROVIDER}/callback`,
      scope: 'openid email profile',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
      code_challenge_method: 'S256',
    });
    const cookie = setCookies(response).svc_oauth_state.value;
    expect(decodeProtectedHeader(cookie)).toEqual({ alg: 'HS256', typ: 'svc-oauth-state+jwt' });
    expect(decodeJwt(cookie)).toMatchObject({ prv: PROVIDER, sta: location.searchParams.get('state'), nce: location.searchParams.get('nonce'), rdr: '/' });
  });

  it('creates the user from the verified id_token and logs in; svc.oidc.login.after carries the user and the userInfo', async () => {
    const { agent, response } = await app.signIn('alice');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    const body = await (await me(agent)).json();
    expect(body).toEqual({ id: expect.any(String), email: 'alice@x.io', displayName: null, plan: 'free' });
    expect(await app.rows('oauth_accounts')).toEqual([expect.objectContaining({ provider: PROVIDER, provider_user_id: 'alice', email: 'alice@x.io' })]);
    const [event] = await app.events.waitFor(AuthEvent.OidcLoginAfter);
    expect(event).toEqual({
      user: body,
      userInfo: { provider: PROVIDER, providerUserId: 'alice', email: 'alice@x.io', emailVerified: true, name: 'Alice', avatarUrl: 'https://img.test/alice.png' },
    });
  });

  it('asks userinfo when the id_token carries no email, for the same subject', async () => {
    const { response } = await app.signIn('bob');
    expect(response.status).toBe(302);
    expect(await app.rows('oauth_accounts')).toContainEqual(expect.objectContaining({ provider_user_id: 'bob', email: 'bob@x.io' }));
  });

  it('refuses an unverified email (400) and an email a user holds without a link (409), writing nothing', async () => {
    let before = await writtenRows(app);
    await expectRefused((await app.signIn('carol')).response, 400, 'OAUTH_EMAIL_UNVERIFIED', before);
    await app.dataSource.query(`INSERT INTO users (id, email, is_active) VALUES ('0b6f7a0e-2f4a-4c3e-9a51-5b1f3c2d4e6f', 'dave@x.io', ${engine === 'postgres' ? 'true' : '1'})`);
    before = await writtenRows(app);
    // beforeOAuthLogin runs first: the hook refuses Dave before any account rule.
    await expectRefused((await app.signIn('dave')).response, 403, 'HOOK_ABORTED', before);
  });

  it('a nonce altered on its way to the provider: 401 OIDC_ID_TOKEN_INVALID', async () => {
    const agent = new BrowserAgent();
    const start = new URL((await agent.request(app.loginUrl())).headers.get('location')!);
    start.searchParams.set('nonce', 'nonce-of-the-attacker');
    const { callbackUrl } = await agent.walkToCallback(start, { app: app.url, login: 'alice' });
    const before = await writtenRows(app);
    await expectRefused(await agent.request(callbackUrl), 401, 'OIDC_ID_TOKEN_INVALID', before);
  });

  it('a PKCE challenge altered on its way to the provider: the code is refused (401 OAUTH_CODE_REJECTED)', async () => {
    const agent = new BrowserAgent();
    const start = new URL((await agent.request(app.loginUrl())).headers.get('location')!);
    start.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const { callbackUrl } = await agent.walkToCallback(start, { app: app.url, login: 'alice' });
    const before = await writtenRows(app);
    await expectRefused(await agent.request(callbackUrl), 401, 'OAUTH_CODE_REJECTED', before);
  });

  it('picks up a signing key rotated between two logins at once, and refetches for unknown keys at most once a minute', async () => {
    expect((await app.signIn('alice')).response.status).toBe(302);
    await app.provider.rotateKeys();
    expect((await app.signIn('alice')).response.status).toBe(302);
    // A second rotation within the minute: the provider's new kid is not fetched again yet.
    await app.provider.rotateKeys();
    const before = await writtenRows(app);
    await expectRefused((await app.signIn('alice')).response, 401, 'OIDC_ID_TOKEN_INVALID', before);
    clock.advance(60_000);
    expect((await app.signIn('alice')).response.status).toBe(302);
  });
});

describe('an OpenID provider that is down when the application starts', () => {
  it('answers 502 until the provider is back, then discovers it and logs in, without a restart', async () => {
    const clock = new TestClock();
    const app = await createOidcApp({ engine: 'sqlite', credential: 'session', clock });
    try {
      await app.provider.stop();
      const refused = await new BrowserAgent().request(app.loginUrl());
      expect(await errorOf(refused)).toMatchObject({ status: 502, code: 'OAUTH_PROVIDER_UNAVAILABLE' });
      expect(setCookies(refused).svc_oauth_state).toBeUndefined();
      await app.provider.start();
      // A failed discovery is tried again after 5 s, not at every request.
      expect((await new BrowserAgent().request(app.loginUrl())).status).toBe(502);
      clock.advance(5_000);
      expect((await app.signIn('alice')).response.status).toBe(302);
    } finally {
      await app.close();
    }
  });
});

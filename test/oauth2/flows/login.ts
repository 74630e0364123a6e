import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent } from '../../support/oauth/index.js';
import { CLIENT_ID, createOAuth2App, credentialCookieOf, errorOf, type OAuth2App, PROVIDER, setCookies } from '../oauth2-kit.js';

const MATRIX = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(MATRIX)('oauth2 login on %s with the %s credential', (engine, credential) => {
  let app: OAuth2App;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    app = await createOAuth2App({ engine, credential, logger });
  });
  afterAll(() => app?.close());

  /** GET /auth/me with what the login left in the agent: the session cookie, or an access token from /refresh. */
  async function me(agent: BrowserAgent): Promise<Response> {
    if (credential === 'session') return agent.request(`${app.url}/auth/me`);
    const refreshed = await agent.request(`${app.url}/auth/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    return agent.request(`${app.url}/auth/me`, { headers: { authorization: `Bearer ${access_token}` } });
  }

  it('creates the user and its link from a verified email, and answers 302 to / with the credential', async () => {
    const { agent, response } = await app.signIn('alice');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    const cookies = setCookies(response);
    expect(cookies.svc_oauth_state.value).toBe('');
    if (credential === 'session') {
      expect(cookies.svc_session.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
    } else {
      // Only the refresh cookie: an access token never travels in a URL or a redirect.
      expect(cookies.svc_refresh.attributes).toEqual(expect.arrayContaining(['Path=/auth', 'HttpOnly', 'SameSite=Lax']));
      expect(cookies.svc_session).toBeUndefined();
    }

    const [user] = await app.rows('users');
    expect(user).toMatchObject({ email: 'alice@x.io', password_hash: null });
    expect(await app.rows('oauth_accounts')).toEqual([
      expect.objectContaining({ provider: PROVIDER, provider_user_id: 'alice', user_id: user.id, email: 'alice@x.io' }),
    ]);
    const body = await (await me(agent)).json();
    expect(body).toEqual({ id: user.id, email: 'alice@x.io', displayName: null, plan: 'free' });

    const [event] = await app.events.waitFor(AuthEvent.OAuth2LoginAfter);
    expect(event).toEqual({
      user: body,
      userInfo: { provider: PROVIDER, providerUserId: 'alice', email: 'alice@x.io', emailVerified: true, name: 'Alice', avatarUrl: 'https://img.test/alice.png' },
      providerAccessToken: expect.any(String),
      providerRefreshToken: expect.any(String),
    });
    // The provider's tokens are never stored or logged.
    for (const token of [event.providerAccessToken as string, event.providerRefreshToken as string]) {
      for (const table of ['users', 'oauth_accounts', 'sessions', 'refresh_tokens'] as const) expect(JSON.stringify(await app.rows(table))).not.toContain(token);
      expect(logger.lines.map((line) => line.text).join('\n')).not.toContain(token);
    }
  });

  it('logs the same identity in again: the same user, no new user or link', async () => {
    const { agent, response } = await app.signIn('alice');
    expect(response.status).toBe(302);
    expect(await app.rows('users')).toHaveLength(1);
    expect(await app.rows('oauth_accounts')).toHaveLength(1);
    expect(((await (await me(agent)).json()) as { email: string }).email).toBe('alice@x.io');
  });

  it('goes to the ?redirect= path after the login, query and fragment included', async () => {
    const { response } = await app.signIn('alice', new BrowserAgent(), `?redirect=${encodeURIComponent('/dashboard/x?tab=2#top')}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/dashboard/x?tab=2#top');
  });

  it('starts with a signed state cookie (HttpOnly, SameSite=Lax, Path=/auth, 10 minutes), state and PKCE S256', async () => {
    const response = await new BrowserAgent().request(app.loginUrl());
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(app.provider.urls.authorization_endpoint);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${app.url}/auth/oauth2/${PROVIDER}/callback`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[\w-]{32,}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const state = setCookies(response).svc_oauth_state;
    expect(state.value.split('.')).toHaveLength(3);
    expect(state.attributes).toEqual(expect.arrayContaining(['Max-Age=600', 'Path=/auth', 'HttpOnly', 'SameSite=Lax']));
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('authenticates at the token endpoint with client_secret_basic and sends the PKCE verifier', async () => {
    await app.signIn('alice');
    expect(app.provider.tokenRequests.at(-1)).toMatchObject({ clientId: CLIENT_ID, clientAuthentication: 'client_secret_basic', codeVerifier: true, status: 200 });
  });

  it('logout ends the credential like any other', async () => {
    const { agent } = await app.signIn('alice');
    expect((await me(agent)).status).toBe(200);
    const logout = await agent.request(`${app.url}/auth/logout`, { method: 'POST' });
    expect(logout.status).toBe(204);
    if (credential === 'session') expect((await agent.request(`${app.url}/auth/me`)).status).toBe(401);
    else expect((await agent.request(`${app.url}/auth/refresh`, { method: 'POST' })).status).toBe(401);
  });

  it('serves no password route: signup, login, forgot-password and reset-password are 404', async () => {
    for (const path of ['signup', 'login', 'forgot-password', 'reset-password']) {
      const response = await fetch(`${app.url}/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@x.io","password":"correct horse"}' });
      expect(await errorOf(response)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect(credentialCookieOf(await fetch(`${app.url}/auth/login`, { method: 'POST' }))).toBeUndefined();
  });
});

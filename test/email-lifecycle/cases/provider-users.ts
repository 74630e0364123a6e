import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, type AuthOptions } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent, type OidcProviderHarness, reserveLoopbackPort, startOidcProvider } from '../../support/oauth/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { dateOf, engineCredentialPairs, PASSWORD } from '../email-kit.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);
const CLIENT_ID = 'svc-email-lifecycle';
const CLIENT_SECRET = 'Rk7vQ2zL9mW4xN1bT6cH3jF8yG5dPa0s';

/**
 * A user a provider login creates comes from an email the provider verified (docs/decisions/0018-oauth-logins.md), so it is verified from the start: no message, nothing to send, and `required` never
 * holds it back.
 */
describe.each(PAIRS)('users created by an OpenID Connect login, beside a password with required verification, on %s, %s credential', (engine, credential) => {
  let t: TestApp;
  let op: OidcProviderHarness;
  let url: string;
  beforeAll(async () => {
    const port = await reserveLoopbackPort();
    url = `http://127.0.0.1:${port}`;
    op = await startOidcProvider({
      clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/op/callback`] }],
      accounts: { grace: { email: 'grace@x.io', email_verified: true, name: 'Grace' } },
    });
    t = await createTestApp({
      engine,
      options: {
        credential,
        baseUrl: url,
        secret: TEST_SECRET,
        password: { bcryptCost: 10 },
        oidc: { providers: [{ name: 'op', issuer: op.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }] },
        emailVerification: { required: true },
      } as Partial<AuthOptions>,
    });
    await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });

  /** "Sign in with op" in a browser; the headers its page would then send (jwt: the access token from the refresh cookie). */
  async function signIn(agent: BrowserAgent): Promise<Record<string, string>> {
    const { response } = await agent.signIn(`${url}/auth/oidc/op/login`, { app: url, login: 'grace' });
    expect(response.status).toBe(302);
    if (credential === 'session') return { origin: url };
    const refreshed = await agent.request(`${url}/auth/refresh`, { method: 'POST', headers: { origin: url } });
    expect(refreshed.status).toBe(200);
    return { origin: url, authorization: `Bearer ${((await refreshed.json()) as { access_token: string }).access_token}` };
  }

  it('is verified at its first login (email_verified_at = now), gets no verification message, and has nothing to verify', async () => {
    const agent = new BrowserAgent();
    const headers = await signIn(agent);
    const me = await agent.request(`${url}/auth/me`, { headers });
    const body = (await me.json()) as { id: string; email: string; emailVerified: boolean };
    expect(body).toMatchObject({ email: 'grace@x.io', emailVerified: true });
    const [row] = await t.dataSource.query(`SELECT email_verified_at FROM users WHERE id = '${body.id}'`);
    expect(dateOf(row.email_verified_at)).toEqual(t.clock.now());

    const send = await agent.request(`${url}/auth/send-verification`, { method: 'POST', headers });
    expect(send.status).toBe(409);
    expect(((await send.json()) as { code: string }).code).toBe('EMAIL_ALREADY_VERIFIED');
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.EmailVerificationRequested)).toEqual([]);
  });

  it('has no password to give, so a change of email is 401 INVALID_CREDENTIALS', async () => {
    const agent = new BrowserAgent();
    const headers = await signIn(agent);
    const response = await agent.request(`${url}/auth/change-email`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ newEmail: 'grace.hopper@x.io', password: PASSWORD }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_CREDENTIALS');
  });
});

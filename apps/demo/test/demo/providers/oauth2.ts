import { beforeAll, describe, expect, it } from '@jest/globals';
import { BrowserAgent, reserveLoopbackPort, startOidcProvider } from '../../../../../test/support/oauth/index.js';
import { type DemoProcess, startSuiteDemo } from '../demo-process.js';
import { refusalsForSuite, startForSuite } from '../suite-demos.js';

const CLIENT_SECRET = 'Tq7vR2mXp9LwK4zN8bHc3JfY6sDg0aEu';

interface Started {
  demo: DemoProcess;
  url: string;
  stop(): Promise<void>;
}

/** A provider and the demo signing in through it. */
async function start(credential: 'session' | 'jwt'): Promise<Started> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    plainOAuth2: true,
    clients: [{ client_id: 'demo', client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oauth2/acme/callback`] }],
    accounts: { ada: { email: 'Ada@Example.io', email_verified: true, name: 'Ada', picture: 'https://img.test/ada.png' } },
  });
  const providers = [
    {
      name: 'acme',
      client_id: 'demo',
      client_secret: CLIENT_SECRET,
      authorization_url: provider.urls.authorization_endpoint,
      token_url: provider.urls.token_endpoint,
      userinfo_url: provider.urls.userinfo_endpoint,
      scopes: ['openid', 'email', 'profile'],
      profile: { id: 'sub', email: 'email', name: 'name', avatar_url: 'picture', email_verified: 'email_verified' },
    },
  ];
  const { demo, stop } = await startSuiteDemo(
    {
      PORT: String(port),
      AUTH_BASE_URL: url,
      DATABASE_URL: 'sqlite::memory:',
      AUTH_STRATEGY: 'oauth2',
      AUTH_OAUTH_CREDENTIAL: credential,
      AUTH_SECRET: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa',
      OAUTH2_PROVIDERS: JSON.stringify(providers),
    },
    () => provider.close(),
  );
  return { demo, url, stop };
}

// Both credentials' providers and demos start at once.
const started = startForSuite({ session: () => start('session'), jwt: () => start('jwt') });

/** AUTH_STRATEGY=oauth2 with OAUTH2_PROVIDERS: the demo's mapper reads the `profile` field names it is given. */
describe.each(['session', 'jwt'] as const)('the demo on the oauth2 strategy, AUTH_OAUTH_CREDENTIAL=%s', (credential) => {
  let demo: DemoProcess;
  let url: string;

  beforeAll(() => {
    ({ demo, url } = started[credential]!);
  });

  it('shows "Sign in with acme" and no password form', async () => {
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<a href="/auth/oauth2/acme/login">Sign in with acme</a>');
    expect(page).not.toContain('<form id="login">');
  });

  it('signs in through the provider, lands on /, and /profile knows the user; the EVENT line leaves the provider tokens out', async () => {
    const agent = new BrowserAgent();
    const { response } = await agent.signIn(`${url}/auth/oauth2/acme/login`, { app: url, login: 'ada' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    let headers: Record<string, string> = {};
    if (credential === 'jwt') {
      const refreshed = await agent.request(`${url}/auth/refresh`, { method: 'POST' });
      headers = { authorization: `Bearer ${((await refreshed.json()) as { access_token: string }).access_token}` };
    }
    const profile = await agent.request(`${url}/profile`, { headers });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toEqual({ id: expect.any(String), email: 'ada@example.io', displayName: null, plan: 'free', roles: ['member'], permissions: [] });

    const event = await demo.waitForLine('EVENT ', (line) => line.name === 'svc.oauth2.login.after');
    expect(event.payload).toEqual({
      user: { id: expect.any(String), email: 'ada@example.io', displayName: null, plan: 'free', roles: ['member'] },
      userInfo: { provider: 'acme', providerUserId: 'ada', email: 'Ada@Example.io', emailVerified: true, name: 'Ada', avatarUrl: 'https://img.test/ada.png' },
    });
  });
});

describe('the demo refuses a broken OAUTH2_PROVIDERS', () => {
  const REFUSED = [
    ['not JSON', 'OAUTH2_PROVIDERS must be a JSON list of provider objects'],
    ['[{"name":"x"}]', 'OAUTH2_PROVIDERS[0].client_id is required'],
    ['[]', 'oauth2.providers must list at least one provider'],
  ];
  // Every refused start of this describe runs at once.
  const exitOf = refusalsForSuite(
    REFUSED.map(([value]) => value),
    (value) => ({ AUTH_STRATEGY: 'oauth2', OAUTH2_PROVIDERS: value }),
  );
  it.each(REFUSED)('%s: exits non-zero naming the field', async (value, message) => {
    const result = await exitOf(value);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});

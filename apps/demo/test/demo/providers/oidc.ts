import { beforeAll, describe, expect, it } from '@jest/globals';
import { BrowserAgent, reserveLoopbackPort, startOidcProvider } from '../../../../../test/support/oauth/index.js';
import { type DemoProcess, startSuiteDemo } from '../demo-process.js';
import { startForSuite } from '../suite-demos.js';

const CLIENT_SECRET = 'Wm4kP8sQ2nX6vB9cR3tY7hJ1gF5dLa0e';

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
    clients: [{ client_id: 'demo', client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/corp/callback`] }],
    accounts: { grace: { email: 'grace@example.io', email_verified: true, name: 'Grace' } },
  });
  const { demo, stop } = await startSuiteDemo(
    {
      PORT: String(port),
      AUTH_BASE_URL: url,
      DATABASE_URL: 'sqlite::memory:',
      AUTH_STRATEGY: 'oidc',
      AUTH_OAUTH_CREDENTIAL: credential,
      AUTH_SECRET: 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa',
      OIDC_PROVIDERS: JSON.stringify([{ name: 'corp', issuer: provider.issuer, client_id: 'demo', client_secret: CLIENT_SECRET, scopes: ['openid', 'email', 'profile'] }]),
    },
    () => provider.close(),
  );
  return { demo, url, stop };
}

// Both credentials' providers and demos start at once.
const started = startForSuite({ session: () => start('session'), jwt: () => start('jwt') });

/** AUTH_STRATEGY=oidc with OIDC_PROVIDERS: discovery, a verified id_token, then the credential of AUTH_OAUTH_CREDENTIAL. */
describe.each(['session', 'jwt'] as const)('the demo on the oidc strategy, AUTH_OAUTH_CREDENTIAL=%s', (credential) => {
  let demo: DemoProcess;
  let url: string;

  beforeAll(() => {
    ({ demo, url } = started[credential]!);
  });

  it('signs in through the provider\'s real forms; /profile knows the user; EVENT svc.oidc.login.after', async () => {
    expect(await (await fetch(`${url}/`)).text()).toContain('<a href="/auth/oidc/corp/login">Sign in with corp</a>');
    const agent = new BrowserAgent();
    const { response } = await agent.signIn(`${url}/auth/oidc/corp/login?redirect=/profile`, { app: url, login: 'grace' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/profile');
    let headers: Record<string, string> = {};
    if (credential === 'jwt') {
      const refreshed = await agent.request(`${url}/auth/refresh`, { method: 'POST' });
      headers = { authorization: `Bearer ${((await refreshed.json()) as { access_token: string }).access_token}` };
    }
    const profile = await agent.request(`${url}/profile`, { headers });
    expect(await profile.json()).toEqual({ id: expect.any(String), email: 'grace@example.io', displayName: null, plan: 'free', roles: ['member'], permissions: [] });
    const event = await demo.waitForLine('EVENT ', (line) => line.name === 'svc.oidc.login.after');
    expect(event.payload).toMatchObject({ user: { email: 'grace@example.io' }, userInfo: { provider: 'corp', providerUserId: 'grace', emailVerified: true } });
  });
});

import { beforeAll, describe, expect, it } from '@jest/globals';
import { BrowserAgent } from '../../../../../test/support/oauth/index.js';
import { type DemoProcess, startSuiteDemo } from '../demo-process.js';
import { refusalsForSuite, startForSuite } from '../suite-demos.js';
import { type DemoProviders, startDemoProviders } from '../demo-providers.js';

const SECRET = 'Rk7Yq2Nv9Lx4Tc8Mz3Hb6Wj1Pf5Gd0Sa';
const ACCOUNTS = {
  grace: { email: 'grace@example.io', email_verified: true, name: 'Grace Hopper' },
  linus: { email: 'linus@example.io', email_verified: true, name: 'Linus' },
};

type Document = { paths: Record<string, Record<string, unknown>> };

function routesOf(document: Document): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

/** A token body's bearer header (jwt), or nothing (session: the agent's cookie does it). */
async function credentialHeaders(agent: BrowserAgent, baseUrl: string, credential: 'session' | 'jwt'): Promise<Record<string, string>> {
  if (credential === 'session') return {};
  const refreshed = await agent.request(`${baseUrl}/auth/refresh`, { method: 'POST' });
  return { authorization: `Bearer ${((await refreshed.json()) as { access_token: string }).access_token}` };
}

interface Started {
  providers: DemoProviders;
  demo: DemoProcess;
  stop(): Promise<void>;
}

/** The demo's providers, then the demo on their port with `env`. */
async function startWithProviders(env: Record<string, string>): Promise<Started> {
  const providers = await startDemoProviders(ACCOUNTS);
  const { demo, stop } = await startSuiteDemo(
    { PORT: String(providers.port), AUTH_BASE_URL: providers.baseUrl, DATABASE_URL: 'sqlite::memory:', AUTH_SECRET: SECRET, ...providers.env, ...env },
    () => providers.close(),
  );
  return { providers, demo, stop };
}

// Every demo of this file starts at once.
// Beside AUTH_LOGIN, AUTH_STRATEGY is not read: oauth2 alone would serve no password route.
const loginSet = (credential: 'session' | 'jwt') => startWithProviders({ AUTH_LOGIN: 'password,oidc,oauth2', AUTH_CREDENTIAL: credential, AUTH_STRATEGY: 'oauth2' });
const started = startForSuite({
  session: () => loginSet('session'),
  jwt: () => loginSet('jwt'),
  withoutLogin: () => startWithProviders({ AUTH_STRATEGY: 'oidc', AUTH_OAUTH_CREDENTIAL: 'jwt' }),
});

/**
 * AUTH_LOGIN=password,oidc,oauth2 (docs/demo.md): one demo offering a password and two
 * providers at once, the credential of AUTH_CREDENTIAL, and failed callbacks sent back to the page.
 */
describe.each(['session', 'jwt'] as const)('the demo with AUTH_LOGIN=password,oidc,oauth2, AUTH_CREDENTIAL=%s', (credential) => {
  let providers: DemoProviders;
  let demo: DemoProcess;
  let url: string;

  beforeAll(() => {
    ({ providers, demo } = started[credential]!);
    url = providers.baseUrl;
  });

  it('lists in /docs-json the routes of the three methods, two-step login, the credential and linking, and /profile: not the page files, not the bench routes', async () => {
    const document = (await (await fetch(`${url}/docs-json`)).json()) as Document;
    const password = ['POST /auth/change-password', 'POST /auth/forgot-password', 'POST /auth/login', 'POST /auth/reset-password', 'POST /auth/signup'];
    // AUTH_EMAIL_VERIFICATION defaults to optional beside a password.
    const email = ['POST /auth/cancel-email-change', 'POST /auth/change-email', 'POST /auth/confirm-email', 'POST /auth/send-verification', 'POST /auth/verify-email'];
    const provider = (method: string) => [`GET /auth/${method}/{provider}/callback`, `GET /auth/${method}/{provider}/login`, `POST /auth/${method}/{provider}/link`, `POST /auth/${method}/{provider}/reauth`];
    const accounts = ['GET /auth/accounts', 'DELETE /auth/accounts/{method}/{provider}'];
    const twoStep = ['POST /auth/mfa/recovery-codes', 'POST /auth/mfa/totp/disable', 'POST /auth/mfa/totp/enable', 'POST /auth/mfa/totp/setup', 'POST /auth/mfa/verify'];
    // The device list comes with either credential (docs/guides/devices.md).
    const session = ['GET /auth/me', 'DELETE /auth/me', 'POST /auth/logout', ...(credential === 'jwt' ? ['POST /auth/refresh'] : []), 'GET /auth/sessions', 'DELETE /auth/sessions', 'DELETE /auth/sessions/{id}'];
    // The demo's administration, and its route behind @Roles('admin') (docs/demo.md).
    const admin = ['GET /auth/admin/users', 'GET /auth/admin/users/{id}', 'POST /auth/admin/users/{id}/roles', 'DELETE /auth/admin/users/{id}/roles/{role}', 'POST /auth/admin/users/{id}/deactivate', 'POST /auth/admin/users/{id}/activate', 'POST /auth/admin/users/{id}/revoke-sessions', 'POST /auth/admin/users/{id}/password-reset', 'DELETE /auth/admin/users/{id}', 'POST /auth/admin/users/{id}/impersonate', 'POST /auth/admin/impersonation/stop'];
    // Fresh sign-in (the password's /reauth; passkeys are off on this plain-http demo) and the activity log, on by default.
    const accountSecurity = ['POST /auth/reauth', 'GET /auth/me/activity', 'GET /auth/admin/audit'];
    expect(routesOf(document)).toEqual([...password, ...email, ...twoStep, ...provider('oidc'), ...provider('oauth2'), ...accounts, ...session, ...admin, ...accountSecurity, 'GET /admin-only', 'GET /profile'].sort());
  });

  it('serves the password form and both providers\' links on one page', async () => {
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<form id="account"');
    expect(page).toContain('<a href="/auth/oidc/corp/login">Sign in with corp</a>');
    expect(page).toContain('<a href="/auth/oauth2/acme/login">Sign in with acme</a>');
    expect(page).toContain(`data-credential="${credential}"`);
  });

  it('signs up with a password and answers with the credential of AUTH_CREDENTIAL', async () => {
    const response = await fetch(`${url}/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.io', password: 'correct horse', displayName: 'Ada' }),
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    if (credential === 'jwt') expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 600 });
    else expect(body).toEqual({ id: expect.any(String), email: 'ada@example.io', displayName: 'Ada', plan: 'free', emailVerified: false, mfa: { totp: false }, roles: ['member'] });
  });

  it.each([
    ['oidc', 'corp', 'grace', 'Grace Hopper'],
    ['oauth2', 'acme', 'linus', 'Linus'],
  ])('signs a new person in through %s "%s"; the provider\'s name becomes the display name', async (method, name, login, displayName) => {
    const agent = new BrowserAgent();
    const { response } = await agent.signIn(`${url}/auth/${method}/${name}/login`, { app: url, login });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    const profile = await agent.request(`${url}/profile`, { headers: await credentialHeaders(agent, url, credential) });
    // A provider verified the email of the user it created; two-step login is on beside the password, off for this user.
    expect(await profile.json()).toEqual({ id: expect.any(String), email: `${login}@example.io`, displayName, plan: 'free', emailVerified: true, mfa: { totp: false }, roles: ['member'], permissions: [] });
  });

  it('sends a refused consent back to the page as /?error=OAUTH_PROVIDER_ERROR', async () => {
    const agent = new BrowserAgent();
    const { callbackUrl } = await agent.walkToCallback(`${url}/auth/oidc/corp/login`, { app: url, login: 'grace', interaction: 'cancel' });
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    const response = await agent.request(callbackUrl);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/?error=OAUTH_PROVIDER_ERROR');
  });

  it('says at startup that AUTH_STRATEGY is not read', () => {
    expect(demo.lines.some((line) => line.includes('AUTH_STRATEGY is not read when AUTH_LOGIN is set'))).toBe(true);
  });
});

/** Without AUTH_LOGIN the demo is what it was: AUTH_STRATEGY and AUTH_OAUTH_CREDENTIAL shape it. */
describe('the demo without AUTH_LOGIN', () => {
  let providers: DemoProviders;

  beforeAll(() => {
    ({ providers } = started.withoutLogin!);
  });

  it('serves the oidc strategy alone, with the jwt credential: no password route, no oauth2 route', async () => {
    const routes = routesOf((await (await fetch(`${providers.baseUrl}/docs-json`)).json()) as Document);
    expect(routes).toContain('GET /auth/oidc/{provider}/login');
    expect(routes).toContain('POST /auth/refresh');
    expect(routes.filter((route) => route.includes('/auth/signup') || route.includes('/auth/oauth2/'))).toEqual([]);
    const page = await (await fetch(`${providers.baseUrl}/`)).text();
    expect(page).not.toContain('<form id="account"');
    expect(page).toContain('<a href="/auth/oidc/corp/login">Sign in with corp</a>');
  });

  it('answers a refused consent with the JSON error body, as before (no errorRedirect)', async () => {
    const agent = new BrowserAgent();
    const { callbackUrl } = await agent.walkToCallback(`${providers.baseUrl}/auth/oidc/corp/login`, { app: providers.baseUrl, login: 'grace', interaction: 'cancel' });
    const response = await agent.request(callbackUrl);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'OAUTH_PROVIDER_ERROR' });
  });
});

describe('the demo refuses a bad AUTH_LOGIN or AUTH_CREDENTIAL', () => {
  const oidcOnly = JSON.stringify([{ name: 'corp', issuer: 'http://127.0.0.1:9', client_id: 'demo', client_secret: SECRET }]);
  const REFUSED: [Record<string, string>, string][] = [
    [{ AUTH_LOGIN: 'password,ldap' }, 'AUTH_LOGIN must be a comma list of password, oauth2, oidc (got "ldap")'],
    [{ AUTH_LOGIN: 'password,,oidc' }, 'AUTH_LOGIN must be a comma list of password, oauth2, oidc (got "")'],
    [{ AUTH_LOGIN: 'password, password' }, 'AUTH_LOGIN lists a method twice'],
    [{ AUTH_LOGIN: 'password,oidc' }, 'AUTH_LOGIN has oidc, but OIDC_PROVIDERS lists no provider'],
    [{ AUTH_LOGIN: 'oauth2,oidc', OIDC_PROVIDERS: oidcOnly }, 'AUTH_LOGIN has oauth2, but OAUTH2_PROVIDERS lists no provider'],
    [{ AUTH_LOGIN: 'password', AUTH_CREDENTIAL: 'cookie' }, 'AUTH_CREDENTIAL must be one of session, jwt'],
    [{ AUTH_CREDENTIAL: 'jwt' }, 'AUTH_CREDENTIAL is read only with AUTH_LOGIN'],
    [{ AUTH_LOGIN: 'password', AUTH_SECRET: 'changeme' }, 'secret must be at least 32 characters'],
  ];
  // Every refused start of this describe runs at once.
  const exitOf = refusalsForSuite(REFUSED.map(([env]) => env));
  it.each(REFUSED)('exits non-zero on %o, naming the variable', async (env, message) => {
    const result = await exitOf(env);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});

import type { LoggerService, Type } from '@nestjs/common';
import type { AuthHooks, AuthorizationOptions, AuthOptions, MfaOptions, OAuthUserInfo, ProfileColumnsMapper } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { BrowserAgent, type OidcProviderHarness, type ProviderAccount, reserveLoopbackPort, startOidcProvider } from '../support/oauth/index.js';
import { createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';

export const CLIENT_ID = 'svc-several-ways';
export const CLIENT_SECRET = 'Hk3vQ9zL2mW7xN4bT8cR1jF6yG5dPa0s';
export const PASSWORD = 'correct horse battery';

/**
 * One application with a password, an OpenID Connect provider `op` and a plain OAuth 2.0 provider
 * `acme` in one AuthModule (docs/guides/linking.md), each provider a real oidc-provider on
 * loopback (`acme` in its plain OAuth 2.0 mode). The oauth2 section answers callback errors with a
 * redirect to `/?error=<CODE>`; the oidc section keeps the JSON answers.
 */
export interface SeveralWaysApp extends TestApp {
  url: string;
  credential: 'session' | 'jwt';
  op: OidcProviderHarness;
  acme: OidcProviderHarness;
  /** A browser: its cookies, and (jwt) the access token the page would keep in memory. */
  browser(): Client;
  rows(table: 'users' | 'oauth_accounts' | 'sessions' | 'refresh_tokens'): Promise<Record<string, unknown>[]>;
}

export interface SeveralWaysOptions {
  engine: Engine;
  credential: 'session' | 'jwt';
  hooks?: Type<AuthHooks>;
  providers?: Type[];
  logger?: LoggerService;
  mapProfileToColumns?: ProfileColumnsMapper;
  /** Two-step login (docs/guides/two-step.md). */
  mfa?: MfaOptions;
  /** Roles and permissions (docs/guides/roles-and-permissions.md). */
  authorization?: AuthorizationOptions;
  /** The application's clock (default: the suites' `TestClock`). */
  clock?: TestClock;
  /** Further sections (the activity log's `audit`, say). */
  extra?: Partial<AuthOptions>;
}

export type ProviderMethod = 'oidc' | 'oauth2';
const PROVIDER_OF: Record<ProviderMethod, 'op' | 'acme'> = { oidc: 'op', oauth2: 'acme' };

/** A user agent of the application: the cookies of a browser, plus the bearer token a jwt page holds. */
export class Client {
  readonly agent = new BrowserAgent();
  bearer?: string;

  constructor(private readonly app: { url: string; credential: 'session' | 'jwt' }) {}

  /** A JSON request with the credential a page would send: its cookies, and for jwt the bearer token. */
  async send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { origin: this.app.url };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const response = await this.agent.request(`${this.app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.headers.get('content-type')?.includes('application/json')) {
      const json = (await response.clone().json()) as { access_token?: string };
      if (json.access_token) this.bearer = json.access_token;
    }
    return response;
  }

  signup(email: string, password = PASSWORD): Promise<Response> {
    return this.send('POST', '/auth/signup', { email, password });
  }

  login(email: string, password = PASSWORD): Promise<Response> {
    return this.send('POST', '/auth/login', { email, password });
  }

  async me(): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.send('GET', '/auth/me');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async accounts(): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.send('GET', '/auth/accounts');
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  unlink(method: ProviderMethod, provider = PROVIDER_OF[method]): Promise<Response> {
    return this.send('DELETE', `/auth/accounts/${method}/${provider}`);
  }

  /** Starts a link (POST .../link), walks the provider's forms as `login`, and returns the callback's answer. */
  async link(method: ProviderMethod, login: string): Promise<Response> {
    const start = await this.send('POST', `/auth/${method}/${PROVIDER_OF[method]}/link`, {});
    if (start.status !== 200) return start;
    const { url } = (await start.json()) as { url: string };
    return (await this.agent.signIn(url, { app: this.app.url, login })).response;
  }

  /** Starts a link and walks to the callback without requesting it. */
  async walkToLinkCallback(method: ProviderMethod, login: string): Promise<URL> {
    const start = await this.send('POST', `/auth/${method}/${PROVIDER_OF[method]}/link`, {});
    const { url } = (await start.json()) as { url: string };
    return (await this.agent.walkToCallback(url, { app: this.app.url, login })).callbackUrl;
  }

  /** "Sign in with <provider>": the whole walk; for jwt the page then trades the refresh cookie for its access token. */
  async signInWith(method: ProviderMethod, login: string, interaction?: 'cancel'): Promise<Response> {
    const { response } = await this.agent.signIn(`${this.app.url}/auth/${method}/${PROVIDER_OF[method]}/login`, { app: this.app.url, login, interaction });
    if (response.status === 302 && this.app.credential === 'jwt') await this.send('POST', '/auth/refresh');
    return response;
  }

  async logout(): Promise<void> {
    await this.send('POST', '/auth/logout');
    this.bearer = undefined;
  }
}

export async function createSeveralWaysApp(options: SeveralWaysOptions): Promise<SeveralWaysApp> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const client = (method: ProviderMethod) => ({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/${method}/${PROVIDER_OF[method]}/callback`] });
  const op = await startOidcProvider({ clients: [client('oidc')] });
  const acme = await startOidcProvider({ plainOAuth2: true, clients: [client('oauth2')] });
  const t = await createTestApp({
    engine: options.engine,
    hooks: options.hooks,
    providers: options.providers,
    logger: options.logger,
    clock: options.clock,
    options: {
      credential: options.credential,
      baseUrl: url,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      mfa: options.mfa,
      authorization: options.authorization,
      ...options.extra,
      oidc: { providers: [{ name: 'op', issuer: op.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mapProfileToColumns: options.mapProfileToColumns }] },
      oauth2: {
        errorRedirect: '/',
        providers: [
          {
            name: 'acme',
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            authorizationUrl: acme.urls.authorization_endpoint,
            tokenUrl: acme.urls.token_endpoint,
            userinfoUrl: acme.urls.userinfo_endpoint,
            scopes: ['openid', 'email', 'profile'],
            mapProfileToUser: standardProfile,
            mapProfileToColumns: options.mapProfileToColumns,
          },
        ],
      },
    } as Partial<AuthOptions>,
  });
  await new Promise<void>((resolve, reject) => t.server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const app: SeveralWaysApp = {
    ...t,
    url,
    credential: options.credential,
    op,
    acme,
    browser: () => new Client(app),
    rows: (table) => t.dataSource.query(`SELECT * FROM ${table}`),
    close: async () => {
      await t.close();
      await Promise.all([op.close(), acme.close()]);
    },
  };
  return app;
}

/** Gives both providers the same account, `login` being its name at each (and its `sub`). */
export function addAccount(app: SeveralWaysApp, login: string, account: ProviderAccount): void {
  app.op.setAccount(login, account);
  app.acme.setAccount(login, account);
}

/** oidc-provider's userinfo (OIDC claim names), mapped as an application would for a plain OAuth 2.0 provider. */
function standardProfile(profile: Record<string, unknown>, context: { provider: string }): OAuthUserInfo {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    provider: context.provider,
    providerUserId: String(profile.sub),
    email: text(profile.email),
    emailVerified: profile.email_verified === true,
    name: text(profile.name),
    avatarUrl: text(profile.picture),
  };
}

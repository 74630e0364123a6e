import type { LoggerService, Type } from '@nestjs/common';
import type { AuthHooks, AuthOptions, OidcProviderOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import {
  BrowserAgent,
  type HostileOidcProvider,
  type HostileProviderOptions,
  type OidcProviderHarness,
  type OidcProviderOptions as HarnessOptions,
  reserveLoopbackPort,
  startHostileOidcProvider,
  startOidcProvider,
  adjustableProviderTimeLimit,
} from '../support/oauth/index.js';
import { createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';

export const CLIENT_ID = 'svc-oidc-client';
export const CLIENT_SECRET = 'Wm4kP8sQ2nX6vB9cR3tY7hJ1gF5dLa0e';
export const PROVIDER = 'op';

export const ACCOUNTS = {
  alice: { email: 'alice@x.io', email_verified: true, name: 'Alice', picture: 'https://img.test/alice.png' },
  bob: { email: 'bob@x.io', email_verified: true, name: 'Bob', emailOnlyInUserinfo: true },
  carol: { email: 'carol@x.io', email_verified: false, name: 'Carol' },
  dave: { email: 'dave@x.io', email_verified: true, name: 'Dave' },
};

export interface OidcApp<P> extends TestApp {
  url: string;
  provider: P;
  loginUrl(query?: string, provider?: string): string;
  signIn(login?: string, agent?: BrowserAgent, query?: string): Promise<{ agent: BrowserAgent; response: Response }>;
  walk(login?: string, agent?: BrowserAgent, query?: string): Promise<{ agent: BrowserAgent; callbackUrl: URL }>;
  rows(table: 'users' | 'oauth_accounts' | 'sessions' | 'refresh_tokens'): Promise<Record<string, unknown>[]>;
}

export interface OidcAppOptions {
  engine: Engine;
  credential: 'session' | 'jwt';
  provider?: Partial<OidcProviderOptions>;
  options?: Partial<AuthOptions>;
  oidc?: Partial<NonNullable<AuthOptions['oidc']>>;
  hooks?: Type<AuthHooks>;
  providers?: Type[];
  clock?: TestClock;
  logger?: LoggerService;
}

/** An application on the oidc strategy in front of a real oidc-provider (discovery, login and consent forms). */
export async function createOidcApp(options: OidcAppOptions & { harness?: Partial<HarnessOptions> }): Promise<OidcApp<OidcProviderHarness>> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/${PROVIDER}/callback`] }],
    accounts: ACCOUNTS,
    ...options.harness,
  });
  return serveApp(options, port, provider, provider.issuer);
}

/** The same application in front of the hostile provider, whose every answer a test scripts. */
export async function createHostileOidcApp(options: OidcAppOptions & { hostile?: Partial<HostileProviderOptions> }): Promise<OidcApp<HostileOidcProvider>> {
  const port = await reserveLoopbackPort();
  const provider = await startHostileOidcProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options.hostile });
  return serveApp(options, port, provider, provider.issuer);
}

async function serveApp<P extends { close(): Promise<void> }>(options: OidcAppOptions, port: number, provider: P, issuer: string): Promise<OidcApp<P>> {
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    engine: options.engine,
    strategy: 'oidc',
    hooks: options.hooks,
    providers: options.providers,
    clock: options.clock,
    logger: options.logger,
    // providerTimeoutSeconds unless a test shortens it (withShortProviderCalls).
    overrides: [adjustableProviderTimeLimit],
    options: {
      baseUrl: url,
      ...options.options,
      oidc: {
        secretKey: TEST_SECRET,
        strategy: options.credential,
        providers: [{ name: PROVIDER, issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options.provider }],
        ...options.oidc,
      },
    },
  });
  await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  const app: OidcApp<P> = {
    ...t,
    url,
    provider,
    loginUrl: (query = '', name = PROVIDER) => `${url}/auth/oidc/${name}/login${query}`,
    signIn: async (login, agent = new BrowserAgent(), query = '') => {
      const { response } = await agent.signIn(app.loginUrl(query), { app: url, login });
      return { agent, response };
    },
    walk: async (login, agent = new BrowserAgent(), query = '') => {
      const { callbackUrl } = await agent.walkToCallback(app.loginUrl(query), { app: url, login });
      return { agent, callbackUrl };
    },
    rows: (table) => t.dataSource.query(`SELECT * FROM ${table}`),
    close: async () => {
      await t.close();
      await provider.close();
    },
  };
  return app;
}

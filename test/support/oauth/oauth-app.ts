import type { LoggerService, Type } from '@nestjs/common';
import type { AuthHooks, AuthOptions } from '#svc/auth';
import type { Engine } from '../engines.js';
import { createTestApp, type TestApp, type TestAppOptions, type TestClock } from '../test-app.js';
import { BrowserAgent } from './browser-agent.js';
import { adjustableProviderTimeLimit } from './short-time-limit.js';

/** An application on the oauth2 or oidc strategy, listening on 127.0.0.1 at its base URL, in front of provider `P`. */
export interface OAuthApp<P> extends TestApp {
  url: string;
  provider: P;
  /** The start of a login at the app: `/auth/<method>/<provider>/login`. */
  loginUrl(query?: string, provider?: string): string;
  /** A full login (through the provider's login and consent forms); returns the app's callback answer. */
  signIn(login?: string, agent?: BrowserAgent, query?: string): Promise<{ agent: BrowserAgent; response: Response }>;
  /** Walks a new agent to the callback without requesting it. */
  walk(login?: string, agent?: BrowserAgent, query?: string): Promise<{ agent: BrowserAgent; callbackUrl: URL }>;
  /** Rows of a table, for "nothing was written" checks. */
  rows(table: 'users' | 'oauth_accounts' | 'sessions' | 'refresh_tokens'): Promise<Record<string, unknown>[]>;
}

/** What both kits take besides their section and provider entries. */
export interface OAuthAppBaseOptions {
  engine: Engine;
  credential: 'session' | 'jwt';
  /** Further AuthModule options (rateLimit, jwt, ...). */
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  providers?: Type[];
  clock?: TestClock;
  logger?: LoggerService;
}

/** Where an app runs besides its own port: the base URL it names (another instance's) and a database it shares. */
export interface Placement {
  baseUrl?: string;
  database?: TestAppOptions['database'];
}

export interface ServeOptions<P extends { close(): Promise<void> }> {
  method: 'oauth2' | 'oidc';
  /** The provider name `loginUrl` uses by default. */
  providerName: string;
  port: number;
  provider: P;
  /** The method's section (`oauth2` or `oidc`) of the options. */
  section: NonNullable<AuthOptions['oauth2']> | NonNullable<AuthOptions['oidc']>;
  placement?: Placement;
}

/** Builds the application (the provider time limit adjustable: withShortProviderCalls), listens at its port and wraps it. */
export async function serveOAuthApp<P extends { close(): Promise<void> }>(options: OAuthAppBaseOptions, serve: ServeOptions<P>): Promise<OAuthApp<P>> {
  const { method, providerName, port, provider, placement = {} } = serve;
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    engine: options.engine,
    strategy: method,
    hooks: options.hooks,
    providers: options.providers,
    clock: options.clock,
    logger: options.logger,
    // providerTimeoutSeconds unless a test shortens it (withShortProviderCalls).
    overrides: [adjustableProviderTimeLimit],
    database: placement.database,
    options: { baseUrl: placement.baseUrl ?? url, ...options.options, [method]: serve.section },
  });
  await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  const app: OAuthApp<P> = {
    ...t,
    url,
    provider,
    loginUrl: (query = '', name = providerName) => `${url}/auth/${method}/${name}/login${query}`,
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

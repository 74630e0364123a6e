import type { Type } from '@nestjs/common';
import { AuthEvent, type AuthHooks, type AuthOptions } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { credentialRows, type DatabaseRows } from '../../support/database-rows.js';
import type { Engine, freshDatabase } from '../../support/engines.js';
import { listenOnLoopback } from '../../support/listen.js';
import { cookieOf, type RawRequest, type RawResponse, sendRaw } from '../../support/raw-http.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';

export const PASSWORD = 'correct horse battery';

export interface FaultAppOptions {
  engine: Engine;
  strategy: 'session' | 'jwt';
  database?: Awaited<ReturnType<typeof freshDatabase>>;
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  providers?: Type[];
}

/** An account made through the API, with the credential its signup issued. */
export interface Account {
  email: string;
  /** The session cookie (session) or refresh cookie (jwt) value. */
  cookie: string;
  /** jwt: the access token. */
  access?: string;
}

/** A listening test application with its log captured, and the few requests fault tests repeat. */
export interface FaultApp {
  t: TestApp;
  url: string;
  logger: CapturingLogger;
  cookieName: 'svc_session' | 'svc_refresh';
  send(request: RawRequest): Promise<RawResponse>;
  post(path: string, body?: unknown, headers?: Record<string, string>): RawRequest;
  signup(email: string): Promise<Account>;
  resetTokenFor(email: string): Promise<string>;
  rows(): Promise<DatabaseRows>;
  close(): Promise<void>;
}

export async function createFaultApp(options: FaultAppOptions): Promise<FaultApp> {
  const logger = new CapturingLogger();
  const t = await createTestApp({
    engine: options.engine,
    strategy: options.strategy,
    database: options.database,
    logger,
    hooks: options.hooks,
    providers: options.providers,
    options: { ...options.options, ...(options.strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}) },
  });
  const url = await listenOnLoopback(t.server);
  const cookieName = options.strategy === 'session' ? 'svc_session' : 'svc_refresh';
  const send = (request: RawRequest) => sendRaw(url, request);
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}): RawRequest => ({
    method: 'POST',
    path,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    t,
    url,
    logger,
    cookieName,
    send,
    post,
    async signup(email) {
      const response = await send(post('/auth/signup', { email, password: PASSWORD }));
      if (response.status !== 201) throw new Error(`signup of ${email}: ${response.status} ${response.text}`);
      return { email, cookie: cookieOf(response, cookieName)!, access: (response.json as { access_token?: string }).access_token };
    },
    async resetTokenFor(email) {
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = t.events.payloadsOf(AuthEvent.PasswordResetRequested).length;
      const response = await send(post('/auth/forgot-password', { email }));
      if (response.status !== 202) throw new Error(`forgot-password: ${response.status} ${response.text}`);
      const [event] = (await t.events.waitFor(AuthEvent.PasswordResetRequested, before + 1)).slice(before);
      return event.token as string;
    },
    rows: () => credentialRows(t.dataSource),
    close: () => t.close(),
  };
}

/** The name of the PostgreSQL database behind `app`. */
export function databaseNameOf(app: FaultApp): string {
  const { url } = app.t.dataSource.options as { url?: string };
  return new URL(url!).pathname.slice(1);
}


// Applications with the principal cache on, driven over HTTP as a client would: one or two
// instances on one database, credentials of either kind, and a count of the statements each runs.
import type { Type } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import type { AuthOptions, PrincipalCacheOptions } from '#svc/auth';
import { AuthService } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
export const PASSWORD = 'correct horse battery';

/** What authenticates a request: the session cookie, or the bearer access token (with its refresh cookie). */
export interface Credential {
  headers: Record<string, string>;
  userId: string;
}

export interface CacheApp extends TestApp {
  url: string;
  auth: AuthService;
  /** Statements the application has sent to its database so far. */
  statements(): number;
  signup(email: string): Promise<Credential>;
  login(email: string): Promise<Credential>;
  me(credential: Credential): Promise<number>;
  send(method: string, path: string, credential?: Credential, body?: unknown): Promise<Response>;
}

export interface CacheAppOptions {
  engine: Engine;
  credential: CredentialKind;
  principalCache: PrincipalCacheOptions;
  clock?: TestClock;
  /** Another instance's database: this one shares it (and leaves dropping it to that one). */
  sharing?: CacheApp;
  options?: Partial<AuthOptions>;
  /** Further controllers of the application. */
  controllers?: Type[];
}

export async function createCacheApp(options: CacheAppOptions): Promise<CacheApp> {
  // Unless it shares another's, createTestApp's own database: a new in-memory SQLite, or a migrated PostgreSQL database of the pool.
  const database = options.sharing ? { options: options.sharing.dataSource.options, drop: async () => undefined } : undefined;
  const t = await createTestApp({
    engine: options.engine,
    strategy: options.credential,
    database: database as never,
    clock: options.clock,
    controllers: options.controllers,
    options: { ...(options.credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}), principalCache: options.principalCache, ...options.options },
  });
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  let statements = 0;
  const logger = t.dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (...args: Parameters<typeof logQuery>) => {
    statements++;
    return logQuery(...args);
  };
  const send = (method: string, path: string, credential?: Credential, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...credential?.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const credentialOf = async (response: Response, expected: number): Promise<Credential> => {
    if (response.status !== expected) throw new Error(`answered ${response.status}: ${await response.text()}`);
    const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]);
    if (options.credential === 'session') {
      const cookie = cookies.find((line) => line.startsWith('svc_session='))!;
      const me = await send('GET', '/auth/me', { headers: { cookie }, userId: '' });
      return { headers: { cookie }, userId: ((await me.json()) as { id: string }).id };
    }
    const body = (await response.json()) as { access_token: string };
    const userId = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString()).sub as string;
    return { headers: { authorization: `Bearer ${body.access_token}`, cookie: cookies.find((line) => line.startsWith('svc_refresh='))! }, userId };
  };
  return {
    ...t,
    url,
    auth: t.app.get(AuthService),
    statements: () => statements,
    send,
    signup: async (email) => credentialOf(await send('POST', '/auth/signup', undefined, { email, password: PASSWORD }), 201),
    login: async (email) => credentialOf(await send('POST', '/auth/login', undefined, { email, password: PASSWORD }), 200),
    me: async (credential) => {
      // The bearer alone for jwt: GET /me must not lean on the refresh cookie.
      const headers = options.credential === 'jwt' ? { authorization: credential.headers.authorization } : credential.headers;
      const response = await fetch(`${url}/auth/me`, { headers });
      await response.arrayBuffer();
      return response.status;
    },
  };
}

/** The redis invalidation options of a test, on a channel of its own (Redis is shared by every test run). */
export function redisInvalidation(client: Redis, channel: string): PrincipalCacheOptions {
  return { invalidation: 'redis', redis: client, channel };
}

/** The `p`-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

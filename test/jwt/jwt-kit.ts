import { createHmac, createSign, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { AuthHooks, AuthOptions, JwtOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { claimsOf, cookiesOf, createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';
import type { LoggerService, Type } from '@nestjs/common';

export const PASSWORD = 'correct horse battery';
export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** A jwt-strategy test app, listening on a port so that requests can run in parallel. */
export interface JwtApp extends TestApp {
  url: string;
  signup(email: string, extra?: Record<string, unknown>): request.Test;
  login(email: string, password?: string, refreshToken?: string): request.Test;
  refresh(refreshToken?: string): request.Test;
  logout(credentials: { refresh?: string; bearer?: string }): request.Test;
  me(accessToken: string, path?: string): request.Test;
  /** Signs up `email` and returns the issued access and refresh tokens. */
  account(email: string): Promise<{ access: string; refresh: string; userId: string }>;
}

export async function createJwtApp(options: {
  engine: Engine;
  jwt?: Partial<JwtOptions>;
  /** Further AuthModule options (rateLimit, cookie, ...). */
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  providers?: Type[];
  clock?: TestClock;
  logger?: LoggerService;
}): Promise<JwtApp> {
  const t = await createTestApp({
    engine: options.engine,
    strategy: 'jwt',
    options: { ...options.options, jwt: { secretKey: TEST_SECRET, ...options.jwt } },
    hooks: options.hooks,
    providers: options.providers,
    clock: options.clock,
    logger: options.logger,
  });
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  const refreshCookie = (token?: string) => (token === undefined ? [] : [`svc_refresh=${token}`]);
  const app: JwtApp = {
    ...t,
    url,
    signup: (email, extra = {}) => request(url).post('/auth/signup').send({ email, password: PASSWORD, ...extra }),
    login: (email, password = PASSWORD, refreshToken) => request(url).post('/auth/login').set('Cookie', refreshCookie(refreshToken)).send({ email, password }),
    refresh: (refreshToken) => request(url).post('/auth/refresh').set('Cookie', refreshCookie(refreshToken)),
    logout: ({ refresh, bearer }) => {
      const r = request(url).post('/auth/logout').set('Cookie', refreshCookie(refresh));
      return bearer ? r.set('Authorization', `Bearer ${bearer}`) : r;
    },
    me: (accessToken, path = '/auth/me') => request(url).get(path).set('Authorization', `Bearer ${accessToken}`),
    account: async (email) => {
      const response = await app.signup(email);
      if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${JSON.stringify(response.body)}`);
      return tokensOf(response);
    },
  };
  return app;
}

/** The access token, refresh cookie value and user id of a token response. */
export function tokensOf(response: request.Response): { access: string; refresh: string; userId: string } {
  const access = response.body.access_token as string;
  const refresh = cookiesOf(response).svc_refresh?.value;
  return { access, refresh, userId: claimsOf(access).sub as string };
}

export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
}

const part = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWS with any header and payload, signed the way the test asks (or not at all). */
export function forgeToken(
  header: Record<string, unknown>,
  payload: unknown,
  sign: { hmac: { hash: 'sha256' | 'sha384' | 'sha512'; key: string | Buffer | KeyObject } } | { rsa: KeyObject } | 'none',
): string {
  const input = `${part(header)}.${part(payload)}`;
  if (sign === 'none') return `${input}.`;
  if ('hmac' in sign) return `${input}.${createHmac(sign.hmac.hash, sign.hmac.key).update(input).digest('base64url')}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(sign.rsa).toString('base64url')}`;
}

/** Signs `payload` with the test app's own secret: a token only the claims checks can refuse. */
export function signWithTestSecret(payload: unknown, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): string {
  return forgeToken(header, payload, { hmac: { hash: 'sha256', key: TEST_SECRET } });
}

export { claimsOf };

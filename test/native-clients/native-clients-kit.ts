import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { AuthHooks, AuthOptions } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { BASE_URL, claimsOf, cookiesOf, createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';
import type { Type } from '@nestjs/common';

export const PASSWORD = 'correct horse battery';
export const NATIVE = { 'X-Svc-Client': 'native' } as const;
export type ModuleCredential = 'session' | 'jwt';
export const CREDENTIALS: readonly ModuleCredential[] = ['session', 'jwt'];

/** The native token body, as a native client reads it. */
export interface NativeTokens {
  access: string;
  refresh: string;
  familyId: string;
}

/** An application with a browser credential (`session` or `jwt`) and, unless `native: false`, native clients on. */
export interface NativeApp extends TestApp {
  url: string;
  credential: ModuleCredential;
  signup(email: string, headers?: Record<string, string>): request.Test;
  login(email: string, headers?: Record<string, string>): request.Test;
  /** POST /refresh as a native client, with `body` (default `{ refresh_token }`). */
  refresh(body?: object): request.Test;
  logout(body?: object, bearer?: string): request.Test;
  withBearer(test: request.Test, access: string): request.Test;
  get(path: string, access: string): request.Test;
  /** Signs up `email` as a native client and returns its tokens. */
  nativeAccount(email: string): Promise<NativeTokens>;
}

export async function createNativeApp(options: {
  engine: Engine;
  credential: ModuleCredential;
  native?: boolean;
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  clock?: TestClock;
}): Promise<NativeApp> {
  const native = options.native ?? true;
  const t = await createTestApp({
    engine: options.engine,
    strategy: options.credential,
    options: {
      ...(native || options.credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
      ...options.options,
      ...(native ? { nativeClients: true } : {}),
    } as Partial<AuthOptions>,
    hooks: options.hooks,
    clock: options.clock,
  });
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  const withBearer = (test: request.Test, access: string) => test.set('Authorization', `Bearer ${access}`);
  const app: NativeApp = {
    ...t,
    url,
    credential: options.credential,
    signup: (email, headers = {}) => request(url).post('/auth/signup').set(headers).send({ email, password: PASSWORD }),
    login: (email, headers = {}) => request(url).post('/auth/login').set(headers).send({ email, password: PASSWORD }),
    refresh: (body) => request(url).post('/auth/refresh').set(NATIVE).send(body ?? {}),
    logout: (body, bearer) => {
      const test = request(url).post('/auth/logout').set(NATIVE);
      if (bearer) withBearer(test, bearer);
      return body === undefined ? test : test.send(body);
    },
    withBearer,
    get: (path, access) => withBearer(request(url).get(path), access),
    nativeAccount: async (email) => {
      const response = await app.signup(email, NATIVE);
      if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${JSON.stringify(response.body)}`);
      return nativeTokensOf(response);
    },
  };
  return app;
}

/** The tokens of a native answer, which must set no cookie and carry exactly the four fields. */
export function nativeTokensOf(response: request.Response): NativeTokens {
  expect(response.headers['set-cookie']).toBeUndefined();
  expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
  expect(response.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
  const access = response.body.access_token as string;
  return { access, refresh: response.body.refresh_token as string, familyId: claimsOf(access).sid as string };
}

/** The browser credential of a login or signup answer, as a `Cookie` header value. */
export function browserCookieOf(response: request.Response, credential: ModuleCredential): string {
  const name = credential === 'session' ? 'svc_session' : 'svc_refresh';
  const value = cookiesOf(response)[name]?.value;
  if (!value) throw new Error(`no ${name} cookie in the answer`);
  return `${name}=${value}`;
}

export { BASE_URL, cookiesOf };

export { claimsOf };

import type { Type } from '@nestjs/common';
import request from 'supertest';
import { type AuthOptions, AuthService } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import type { Engine } from '../support/engines.js';
import { claimsOf, createTestApp, setCookiesOf, TEST_SECRET, type TestApp, TestClock } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
export const PASSWORD = 'correct horse battery';
export const MINUTE = 60_000;

/** The policy of the suite: administrators, support staff who may read and act as users, and members. */
export const POLICY = {
  roles: {
    admin: ['users:*'],
    support: ['users:read', 'users:impersonate'],
    auditor: ['users:read'],
    member: [],
  },
};

/** A client's credential: the headers that present it (a session cookie, or a bearer token and the refresh cookie). */
export interface Held {
  userId: string;
  email: string;
  headers: Record<string, string>;
}

export interface AdminApp extends TestApp {
  credential: CredentialKind;
  auth: AuthService;
  /** A new user signed in (svc/testing's `signIn`), holding `roles`. */
  user(email: string, roles?: string[]): Promise<Held>;
  /** A request under the prefix with `held`'s credential (none: anonymous). */
  call(held: Held | null, method: 'get' | 'post' | 'delete', path: string, body?: object): request.Test;
  /** GET /auth/me with the credential. */
  me(held: Held): request.Test;
  /** The credential an impersonation answered with, as headers. */
  heldFrom(response: request.Response, of: Held): Held;
  /** POST /auth/refresh with the refresh cookie of `held`; on success `held` holds the new pair. */
  refresh(held: Held): Promise<request.Response>;
}

/** A test app of `credential` with the suite's policy, the `admin` section and `options` beside them. */
export async function createAdminApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}, clock = new TestClock(), controllers: Type[] = []): Promise<AdminApp> {
  const t = await createTestApp({
    engine,
    clock,
    controllers,
    options: { credential, secret: TEST_SECRET, authorization: POLICY, admin: {}, ...options } as Partial<AuthOptions>,
  });
  const auth = t.app.get(AuthService);
  const withCredential = (test: request.Test, held: Held | null) => {
    for (const [name, value] of Object.entries(held?.headers ?? {})) test.set(name, value);
    return test;
  };
  return {
    ...t,
    credential,
    auth,
    user: async (email, roles = []) => {
      const { user, headers } = await signIn(t.app, email);
      for (const role of roles) await auth.grantRole(user.id, role);
      return { userId: user.id, email: user.email, headers };
    },
    call: (held, method, path, body) => {
      const test = withCredential(request(t.server)[method](`/auth${path}`), held);
      return body === undefined ? test : test.send(body);
    },
    me: (held) => withCredential(request(t.server).get('/auth/me'), held),
    heldFrom: (response, of): Held => {
      const cookies = setCookiesOf(response);
      if (credential === 'session') return { ...of, headers: { Cookie: `svc_session=${cookies.svc_session}` } };
      return { ...of, headers: { Authorization: `Bearer ${response.body.access_token}`, Cookie: `svc_refresh=${cookies.svc_refresh}` } };
    },
    refresh: async (held) => {
      const response = await request(t.server).post('/auth/refresh').set('Cookie', held.headers.Cookie);
      if (response.status === 200) {
        const cookies = setCookiesOf(response);
        held.headers = { Authorization: `Bearer ${response.body.access_token}`, Cookie: `svc_refresh=${cookies.svc_refresh}` };
      }
      return response;
    },
  };
}

export { claimsOf, setCookiesOf };

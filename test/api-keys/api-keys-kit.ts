import { Controller, Get, type Type } from '@nestjs/common';
import request from 'supertest';
import { type AuthOptions, AuthService, CurrentUser, Permissions, Roles, type UserBody } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import type { Engine } from '../support/engines.js';
import { createTestApp, TEST_SECRET, TestClock, type TestApp } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
export const MINUTE = 60_000;
export const DAY = 86_400_000;
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The suite's policy: owners of notes, readers, administrators, and members with no permission. */
export const POLICY = {
  roles: {
    owner: ['notes:*', 'reports:read'],
    reader: ['notes:read'],
    admin: ['users:*'],
    member: [],
  },
};

/** The application's own routes behind the policy's guards. */
@Controller('notes')
export class NotesController {
  @Get('read')
  @Permissions('notes:read')
  read(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  @Get('delete')
  @Permissions('notes:delete')
  remove(): { ok: true } {
    return { ok: true };
  }

  @Get('owners')
  @Roles('owner')
  owners(): { ok: true } {
    return { ok: true };
  }
}

/** A signed-in client: the headers that present its credential. */
export interface Held {
  userId: string;
  email: string;
  headers: Record<string, string>;
}

export interface ApiKeyApp extends TestApp {
  credential: CredentialKind;
  auth: AuthService;
  /** A new user signed in, holding `roles`. */
  user(email: string, roles?: string[]): Promise<Held>;
  /** A request under the prefix with `held`'s credential (none: anonymous). */
  call(held: Held | null, method: 'get' | 'post' | 'delete' | 'patch', path: string, body?: object): request.Test;
  /** A request to the application's own `path` with `held`'s credential. */
  callApp(held: Held, method: 'get' | 'post', path: string): request.Test;
  /** POST /auth/api-keys, expecting 201; the answer's body. */
  createKey(held: Held, body?: object): Promise<{ id: string; name: string; key: string; scopes: string[]; createdAt: string; expiresAt: string | null }>;
  /** A request to `path` (the application's, or `/auth/...`) with `Authorization: Bearer <key>` and nothing else. */
  withKey(key: string, method: 'get' | 'post' | 'delete' | 'patch', path: string): request.Test;
  /** The `api_keys` rows, as the database holds them. */
  rows(): Promise<Record<string, unknown>[]>;
}

/** A test app of `credential` with the suite's policy, the `apiKeys` and `admin` sections and `options` beside them. */
export async function createApiKeyApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}, clock = new TestClock(), controllers: Type[] = [NotesController], globalGuard?: boolean): Promise<ApiKeyApp> {
  const t = await createTestApp({
    engine,
    clock,
    controllers,
    globalGuard,
    options: { credential, secret: TEST_SECRET, authorization: POLICY, admin: {}, apiKeys: {}, ...options } as Partial<AuthOptions>,
  });
  const auth = t.app.get(AuthService);
  const withCredential = (test: request.Test, held: Held | null) => {
    for (const [name, value] of Object.entries(held?.headers ?? {})) test.set(name, value);
    return test;
  };
  const call: ApiKeyApp['call'] = (held, method, path, body) => {
    const test = withCredential(request(t.server)[method](`/auth${path}`), held);
    return body === undefined ? test : test.send(body);
  };
  return {
    ...t,
    credential,
    auth,
    call,
    user: async (email, roles = []) => {
      const { user, headers } = await signIn(t.app, email);
      for (const role of roles) await auth.grantRole(user.id, role);
      return { userId: user.id, email: user.email, headers };
    },
    callApp: (held, method, path) => withCredential(request(t.server)[method](path), held),
    createKey: async (held, body = { name: 'ci' }) => (await call(held, 'post', '/api-keys', body).expect(201)).body,
    withKey: (key, method, path) => request(t.server)[method](path).set('Authorization', `Bearer ${key}`),
    rows: () => t.dataSource.query('SELECT * FROM api_keys ORDER BY created_at, id'),
  };
}

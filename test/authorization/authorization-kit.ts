// Applications with a roles-and-permissions policy, driven over HTTP as a client would, with
// routes of the application's own behind @Roles and @Permissions.
import { Controller, Delete, Get, UseGuards } from '@nestjs/common';
import request from 'supertest';
import { type AuthorizationOptions, AuthService, CurrentUser, CurrentUserGuard, Permissions, Roles, type UserBody } from '#svc/auth';
import type { Engine } from '../support/engines.js';
import { cookiesOf, createTestApp, type TestApp } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
export const PASSWORD = 'correct horse battery';

/** The policy of the suite: `member` by default, and roles granting permissions directly and through `<resource>:*`. */
export const POLICY: AuthorizationOptions = {
  roles: {
    admin: ['users:*', 'audit:read'],
    editor: ['notes:*'],
    reader: ['notes:read'],
    member: [],
  },
  defaultRoles: ['member'],
};

/** The application's routes: any of two roles, all of two permissions, a permission on top of `CurrentUserGuard`. */
@Controller('notes')
export class NotesController {
  @Get()
  @Roles('editor', 'reader')
  list(): { ok: 'list' } {
    return { ok: 'list' };
  }

  @Delete(':id')
  @Permissions('notes:read', 'notes:delete')
  remove(): { ok: 'removed' } {
    return { ok: 'removed' };
  }

  @Get('mine')
  @UseGuards(CurrentUserGuard)
  @Permissions('notes:read')
  mine(@CurrentUser() user: UserBody): UserBody {
    return user;
  }
}

/** A controller whose every route needs `admin`, and one of them also `audit:read`. */
@Controller('backoffice')
@Roles('admin')
export class BackofficeController {
  @Get('stats')
  stats(): { ok: 'stats' } {
    return { ok: 'stats' };
  }

  @Get('audit')
  @Permissions('audit:read', 'users:read')
  audit(): { ok: 'audit' } {
    return { ok: 'audit' };
  }
}

/** What a signed-in client holds: the session cookie, or the bearer access token. */
export interface Held {
  userId: string;
  headers: Record<string, string>;
  /** The body of the signup or login answer. */
  body: Record<string, unknown>;
}

export interface AuthorizationApp extends TestApp {
  credential: CredentialKind;
  auth: AuthService;
  signup(email: string): Promise<Held>;
  login(email: string): Promise<Held>;
  /** A request to the application with the credential (none: anonymous). */
  get(path: string, held?: Held): request.Test;
  del(path: string, held?: Held): request.Test;
}

export async function createAuthorizationApp(engine: Engine, credential: CredentialKind, options: { globalGuard?: boolean; authorization?: AuthorizationOptions } = {}): Promise<AuthorizationApp> {
  const t = await createTestApp({
    engine,
    strategy: credential,
    globalGuard: options.globalGuard,
    controllers: [NotesController, BackofficeController],
    options: { authorization: options.authorization ?? POLICY },
  });
  const withCredential = (test: request.Test, held?: Held) => {
    for (const [name, value] of Object.entries(held?.headers ?? {})) test.set(name, value);
    return test;
  };
  const heldOf = (response: request.Response): Held => {
    if (credential === 'session') return { userId: response.body.id, headers: { Cookie: `svc_session=${cookiesOf(response).svc_session.value}` }, body: response.body };
    const access = response.body.access_token as string;
    const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString('utf8')) as { sub: string };
    return { userId: claims.sub, headers: { Authorization: `Bearer ${access}` }, body: response.body };
  };
  const signedIn = (path: string, expected: number) => async (email: string) => {
    const response = await request(t.server).post(path).send({ email, password: PASSWORD });
    if (response.status !== expected) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return heldOf(response);
  };
  return {
    ...t,
    credential,
    auth: t.app.get(AuthService),
    signup: signedIn('/auth/signup', 201),
    login: signedIn('/auth/login', 200),
    get: (path, held) => withCredential(request(t.server).get(path), held),
    del: (path, held) => withCredential(request(t.server).delete(path), held),
  };
}

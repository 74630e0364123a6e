import { Controller, Get, Injectable, type Type } from '@nestjs/common';
import request from 'supertest';
import { type AuthOptions, AuthEvent, CurrentUser, OnAuthEvent, OrgPermissions, OrgRoles, type UserBody } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import type { Engine } from '../support/engines.js';
import { claimsOf, createTestApp, setCookiesOf, TEST_SECRET, type TestApp, TestClock } from '../support/test-app.js';

export type CredentialKind = 'session' | 'jwt';
const HOUR_MS = 3_600_000;
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The suite's organization policy: the demo's, owner listing every permission. */
export const ORG_POLICY = {
  roles: {
    owner: ['organization:*', 'members:*', 'projects:*'],
    admin: ['organization:update', 'members:*', 'projects:*'],
    member: ['projects:read'],
  },
  creatorRole: 'owner',
};

/** An application route behind `@OrgPermissions`, and one behind `@OrgRoles`. */
@Controller()
export class OrgProjectsController {
  @Get('org-projects')
  @OrgPermissions('projects:read')
  projects(@CurrentUser() user: UserBody): { organizationId: string } {
    return { organizationId: user.organization!.id };
  }

  @Get('org-admin')
  @OrgRoles('owner', 'admin')
  adminOnly(): { ok: true } {
    return { ok: true };
  }
}

/** The application's mailer of invitations: svc does not start without one (the suite reads the mails from the event recorder). */
@Injectable()
export class InvitationMailbox {
  @OnAuthEvent(AuthEvent.OrganizationInvitationMail)
  invitation(): void {}
}

/** A client's credential: the headers that present it. */
export interface Held {
  userId: string;
  email: string;
  headers: Record<string, string>;
}

export interface OrgApp extends TestApp {
  credential: CredentialKind;
  /** A new user signed in (svc/testing's `signIn`), its email verified unless told otherwise. */
  user(email: string, verified?: boolean): Promise<Held>;
  /** A request with `held`'s credential (none: anonymous) at `path` (under the prefix unless it starts with `!`). */
  call(held: Held | null, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object): request.Test;
  me(held: Held): request.Test;
  /** POST /organizations, expecting 201: the new organization's id. */
  organization(owner: Held, slug: string): Promise<string>;
  /** Invites `email` with `role` (201) and resolves to the mailed token. */
  invite(by: Held, organizationId: string, email: string, role: string): Promise<string>;
  /** Invites and accepts: `member` joins with `role`. */
  join(owner: Held, organizationId: string, member: Held, role: string): Promise<void>;
  /** POST /organizations/{id}/activate; for jwt, `held` holds the new access token. */
  activate(held: Held, organizationId: string): Promise<request.Response>;
  /** POST /auth/refresh with the refresh cookie of `held` (jwt); on success `held` holds the new pair. */
  refresh(held: Held): Promise<request.Response>;
}

export async function createOrgApp(engine: Engine, credential: CredentialKind, options: Partial<AuthOptions> = {}, clock = new TestClock(), controllers: Type[] = [OrgProjectsController]): Promise<OrgApp> {
  const t = await createTestApp({
    engine,
    clock,
    controllers,
    providers: [InvitationMailbox],
    logger: process.env.ORG_DEBUG ? { log() {}, warn: console.warn, error: console.error } : undefined,
    options: { credential, secret: TEST_SECRET, organizations: ORG_POLICY, ...options } as Partial<AuthOptions>,
  });
  const withCredential = (test: request.Test, held: Held | null) => {
    for (const [name, value] of Object.entries(held?.headers ?? {})) test.set(name, value);
    return test;
  };
  const call: OrgApp['call'] = (held, method, path, body) => {
    const url = path.startsWith('!') ? path.slice(1) : `/auth${path}`;
    const test = withCredential(request(t.server)[method](url), held);
    return body === undefined ? test : test.send(body);
  };
  let resets = 0;
  const invite: OrgApp['invite'] = async (by, organizationId, email, role) => {
    const before = t.events.payloadsOf(AuthEvent.OrganizationInvitationMail).length;
    await call(by, 'post', `/organizations/${organizationId}/invitations`, { email, role }).expect(201);
    const mails = await t.events.waitFor(AuthEvent.OrganizationInvitationMail, before + 1);
    return mails[before].token;
  };
  return {
    ...t,
    credential,
    // Each test in a window of the invitation limits of its own (the memory limiter outlives the tables).
    reset: async () => {
      await t.reset();
      resets += 1;
      t.clock.advance(resets * 2 * HOUR_MS);
    },
    user: async (email, verified = true) => {
      const { user, headers } = await signIn(t.app, email, { verified });
      return { userId: user.id, email: user.email, headers };
    },
    call,
    me: (held) => withCredential(request(t.server).get('/auth/me'), held),
    organization: async (owner, slug) => (await call(owner, 'post', '/organizations', { name: `Org ${slug}`, slug }).expect(201)).body.id,
    invite,
    join: async (owner, organizationId, member, role) => {
      // Members join one after another (the organization lists them in that order).
      t.clock.advance(1000);
      const token = await invite(owner, organizationId, member.email, role);
      await call(member, 'post', '/organizations/invitations/accept', { token }).expect(200);
    },
    activate: async (held, organizationId) => {
      const response = await call(held, 'post', `/organizations/${organizationId}/activate`);
      if (response.status === 200) held.headers = { ...held.headers, Authorization: `Bearer ${response.body.access_token}` };
      return response;
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

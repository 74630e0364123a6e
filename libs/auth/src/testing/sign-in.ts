import type { INestApplication } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import { CREDENTIAL_ISSUER } from '../credentials/credential.tokens.js';
import type { Clock } from '../config/clock.js';
import type { SvcUser } from '../entities/user.entity.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { CredentialIssuer } from '../credentials/credential-issuer.js';
import { normalizeEmail } from '../users/email.js';
import type { UserBody } from '../users/user-body.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { UserStore } from '../users/user-store.js';

/** A signed-in user of a test: its body, and the headers that present its credential. */
export interface SignedInUser {
  user: UserBody;
  /** `Cookie: svc_session=…`, or `Authorization: Bearer …` (and the refresh cookie) for jwt. */
  headers: Record<string, string>;
}

/** How `signIn` makes its user. */
export interface SignInOptions {
  /** The email is verified (at the app's clock), as after its verification link: for routes behind `@RequireVerifiedEmail()`. @default false for a new user */
  verified?: boolean;
  /** Columns of a user created here (`{ displayName: 'Ada' }`); an existing user keeps its own. */
  columns?: Record<string, unknown>;
}

/**
 * Signs `email` in without a password round trip: the user is created when there is none (with
 * `columns`, no password, its email unverified unless `verified`), and the configured credential
 * is issued and delivered exactly as a login would do it. For tests of guarded routes, hooks and observers.
 */
export async function signIn(app: INestApplication, email: string, options: SignInOptions = {}): Promise<SignedInUser> {
  const users = app.get(UserStore);
  const issuer = app.get<CredentialIssuer>(CREDENTIAL_ISSUER);
  const clock = app.get<Clock>(AUTH_CLOCK);
  const request = { headers: {}, socket: { remoteAddress: '127.0.0.1' } } as unknown as Request;
  const normalized = normalizeEmail(email);
  const { user, credential } = await app.get(UnitOfWork).transaction(async (manager) => {
    let user: SvcUser = (await users.findByEmail(manager, normalized)) ?? (await users.insert(manager, { ...options.columns, email: normalized, passwordHash: null }));
    if (options.verified && !user.emailVerifiedAt) {
      await users.markEmailVerified(manager, user.id, clock.now());
      user = (await users.findByEmail(manager, normalized))!;
    }
    user = await users.loadRoles(manager, user);
    return { user, credential: await issuer.issue(manager, user, request) };
  });
  const delivered = new DeliveryRecorder();
  const body = issuer.deliverAsJson(delivered as unknown as Response, credential, user) as { access_token?: string };
  const headers: Record<string, string> = { Cookie: delivered.cookieHeader() };
  if (body.access_token) headers.Authorization = `Bearer ${body.access_token}`;
  return { user: app.get(UserSerializer).serialize(user), headers };
}

/** Stands in for the response a login would have answered: keeps the cookies it is given. */
class DeliveryRecorder {
  private readonly cookies = new Map<string, string>();

  cookie(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { SECOND_FACTOR_GATE } from './login-parts.js';
import { CREDENTIAL_ISSUER } from '../credentials/credential.tokens.js';
import { CredentialDelivery, type LoginResult } from '../credentials/credential-delivery.js';
import type { CredentialIssuer, Impersonation } from '../credentials/credential-issuer.js';
import type { SvcUser } from '../entities/user.entity.js';
import type { LoginProof, SecondFactorGate } from './login-parts.js';
import { UserStore } from '../users/user-store.js';
import { LoginActivity } from '../audit-log/login-activity.js';

/** What a login method's transaction staged: a credential to deliver once it has committed, or a second factor's challenge. */
export type StagedLogin = { outcome: 'signed-in'; login: LoginResult } | { outcome: 'second-factor'; user: SvcUser; challenge: unknown };

/** An impersonation's credential, staged in its transaction. */
export interface StagedImpersonation {
  user: SvcUser;
  credential: unknown;
}

/** The answer of a login that owes a second factor: no credential, the challenge's cookie only. */
export const SECOND_FACTOR_REQUIRED = Object.freeze({ mfaRequired: true, methods: Object.freeze(['totp', 'recovery_code']) });

/**
 * The one step between a way in and the credential's delivery (docs/guides/two-step.md):
 * inside the login's transaction it stages what the user is owed (the credential, or when a second
 * factor is owed only its challenge), and once that has committed it answers with it, as JSON
 * (password login, the second step, a passkey) or as a redirect (a provider's callback). The second
 * step and a passkey login sign in through it too, inside their own transaction, without the gate.
 */
@Injectable()
export class LoginCompletion {
  constructor(
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    @Inject(SECOND_FACTOR_GATE) private readonly secondFactor: SecondFactorGate,
    private readonly delivery: CredentialDelivery,
    private readonly users: UserStore,
    private readonly activity: LoginActivity,
  ) {}

  /** In the login's transaction, with the user's row as it now stands. */
  async stage(manager: EntityManager, user: SvcUser, request: Request, proof: LoginProof): Promise<StagedLogin> {
    const challenge = await this.secondFactor.challengeFor(user, proof);
    if (challenge !== null) return { outcome: 'second-factor', user, challenge };
    return this.signIn(manager, user, request, proof);
  }

  /**
   * In the caller's transaction, for a login that owes nothing more, so the gate is not asked: its
   * second factor answered, or a passkey (two factors in one). The credential is issued in the same
   * commit as the caller's own writes (the spent challenge, the passkey's counter). `proof` is how
   * the login is announced: the first factor's, or `{ method: 'passkey' }`.
   */
  async signIn(manager: EntityManager, user: SvcUser, request: Request, proof: LoginProof | { method: 'passkey' }): Promise<Extract<StagedLogin, { outcome: 'signed-in' }>> {
    // The login's body and event carry the roles as this transaction reads them (docs/guides/roles-and-permissions.md).
    const signedIn = await this.users.loadRoles(manager, user);
    // Before the credential: a login whose credential cannot be stored leaves no entry.
    const provider = 'provider' in proof ? proof.provider : undefined;
    await this.activity.record(manager, signedIn, request, provider === undefined ? { method: proof.method } : { method: proof.method, provider });
    return { outcome: 'signed-in', login: { user: signedIn, credential: await this.issuer.issue(manager, signedIn, request), ...proof } };
  }

  /**
   * In the caller's transaction: the credential of `user` for an administrator acting as them
   * (docs/guides/administration.md), issued as a login's (no second factor: the user is not the one
   * signing in), marked with the administrator and ending within the impersonation's lifetime. The
   * credential the request presented, the administrator's own, is kept.
   */
  async impersonate(manager: EntityManager, user: SvcUser, request: Request, impersonation: Impersonation): Promise<StagedImpersonation> {
    // The answer's body carries the user's roles as a login's does (docs/guides/roles-and-permissions.md).
    const acting = await this.users.loadRoles(manager, user);
    return { user: acting, credential: await this.issuer.issue(manager, acting, request, impersonation) };
  }

  /** The answer of an impersonation once its transaction has committed: the credential's, as a login's JSON answer. */
  impersonationAsJson(response: Response, staged: StagedImpersonation): object {
    return this.delivery.asImpersonation(response, staged.credential, staged.user);
  }

  /** The answer of a login that took a JSON body: the credential's, or 200 `{ mfaRequired, methods }` with the challenge cookie. */
  asJson(request: Request, response: Response, staged: StagedLogin): object {
    if (staged.outcome === 'signed-in') return this.delivery.asJson(request, response, staged.login);
    this.secondFactor.deliver(response, staged.challenge);
    return SECOND_FACTOR_REQUIRED;
  }

  /**
   * The answer of a provider's callback: a redirect to `location` with the credential, or with the
   * challenge cookie and `mfa=required` added to its query (the page then asks for a code). Returns
   * the user signed in, or null when a second factor is owed.
   */
  asRedirect(request: Request, response: Response, staged: StagedLogin, location: string): SvcUser | null {
    if (staged.outcome === 'signed-in') {
      this.delivery.asRedirect(request, response, staged.login, location);
      return staged.login.user;
    }
    this.secondFactor.deliver(response, staged.challenge);
    response.redirect(302, withQuery(location, 'mfa', 'required'));
    return null;
  }
}

/** A same-origin path with one more query parameter (its fragment kept last). */
function withQuery(path: string, name: string, value: string): string {
  const url = new URL(path, 'http://same-origin.invalid');
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

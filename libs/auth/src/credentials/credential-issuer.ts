import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { SvcUser } from '../entities/user.entity.js';

/**
 * A credential issued to an administrator who acts as the user (docs/guides/administration.md):
 * marked with the administrator's id, ending at most `lifetimeSeconds` after it is issued, and
 * leaving the credential the request presented (the administrator's own) as it was.
 */
export interface Impersonation {
  actorId: string;
  lifetimeSeconds: number;
}

/**
 * How a credential (a session, or a refresh family with its access token) reaches a user who has
 * just proven who they are, in two steps: `issue` stages it inside the request's transaction, so
 * that it is committed with the rows it goes with or not at all (docs/decisions/0003-transactions.md); `deliver...` hands
 * it to the client once that transaction has committed. Every login method (password, OAuth) goes
 * through the issuer of the configured credential.
 */
export interface CredentialIssuer<C = unknown> {
  /** Whether a password signup also logs the new user in. */
  readonly issuedAtSignup: boolean;

  /**
   * Stages a new credential for `user`. The credential the request presented, if any, is ended:
   * a login never lets an older credential of the same browser live on (session fixation). With
   * `impersonation`, the credential is marked as the administrator's and the presented one is kept.
   */
  issue(manager: EntityManager, user: SvcUser, request: Request, impersonation?: Impersonation): Promise<C>;

  /** Sets the credential's cookie and returns the JSON body of the answer (user body or token body). */
  deliverAsJson(response: Response, credential: C, user: SvcUser): object;

  /** Sets the credential's cookie and redirects to `location` (an OAuth callback). */
  deliverAsRedirect(response: Response, credential: C, location: string): void;

  /** Clears the credential's cookie (the session cookie, or the refresh cookie) once the credential has ended. */
  clearCookie(response: Response): void;
}

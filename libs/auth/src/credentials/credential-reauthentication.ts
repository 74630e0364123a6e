import type { Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { Principal } from './credential-resolver.js';

/**
 * How the presented credential records a re-authentication (docs/decisions/0028-fresh-sign-in.md):
 * `renew` moves its `authTime` to now inside the caller's transaction; `deliver` answers once that
 * has committed: nothing for a session (204), a new access token for jwt (its refresh family's
 * `authTime` moved too, so the next refresh carries it).
 */
export interface CredentialReauthentication<R = unknown> {
  renew(manager: EntityManager, principal: Principal): Promise<R>;
  /** The JSON body of the answer, or undefined for 204. */
  deliver(response: Response, renewed: R): object | undefined;
}

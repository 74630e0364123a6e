import type { Request, Response } from 'express';
import type { SvcUser } from '../entities/user.entity.js';
import type { UserBody } from '../users/user-body.js';

/** Who a request is, as `CurrentUserGuard` established it. */
export interface Principal {
  user: SvcUser;
  /** `user` as the user body. */
  body: UserBody;
  /** The session row (session strategy). */
  sessionId?: string;
  /** The refresh family, the access token's `sid` (jwt strategy). */
  familyId?: string;
  /** The administrator who holds this credential of the user (docs/guides/administration.md, impersonation). */
  impersonatedBy?: string;
  /** The API key that authenticated the request (docs/guides/machine-access.md): its permissions are the owner's within its scopes. */
  apiKey?: { id: string; scopes: readonly string[] };
  /**
   * The credential's last real sign-in (docs/decisions/0028-fresh-sign-in.md): the session row's, or
   * the access token's `auth_time`. Null when unknown: never fresh.
   */
  authTime: Date | null;
}

/**
 * The strategy-specific half of `CurrentUserGuard`: reads the credential from the request and
 * resolves the principal, or throws `AuthError('UNAUTHENTICATED')`.
 */
export interface CredentialResolver {
  resolve(request: Request, response: Response): Promise<Principal>;
  /**
   * Who holds the credential's cookie, or null: the session cookie's user, or the user of the
   * refresh cookie's live family. For a top-level navigation such as an OAuth callback, which
   * carries cookies but never a bearer header (docs/guides/linking.md).
   */
  resolveFromCookie(request: Request): Promise<Principal | null>;
}

/**
 * The principal of a credential, with `impersonatedBy` in its body too when an administrator holds
 * it, so `/me` and `request.user` say so (docs/guides/administration.md).
 */
export function principalOfCredential(user: SvcUser, body: UserBody, credential: { sessionId?: string; familyId?: string; impersonatedBy?: string | null; authTime: Date | null }): Principal {
  const { impersonatedBy, ...held } = credential;
  if (impersonatedBy === null || impersonatedBy === undefined) return { user, body, ...held };
  return { user, body: { ...body, impersonatedBy }, ...held, impersonatedBy };
}

/**
 * A copy of a cached principal for one request (docs/guides/principal-cache.md): what a handler or a
 * guard does to `request.user` or to the row stays in that request.
 */
export function copyOfPrincipal(principal: Principal): Principal {
  const user = Object.assign(Object.create(Object.getPrototypeOf(principal.user) as object) as SvcUser, principal.user);
  const body = { ...principal.body };
  // The lists too: a handler that pushes onto its request.user.roles changes no other request's.
  if (body.roles) body.roles = [...body.roles];
  if (body.permissions) body.permissions = [...body.permissions];
  if (body.apiKey) body.apiKey = { ...body.apiKey, scopes: [...body.apiKey.scopes] };
  if (body.organization) body.organization = { ...body.organization, permissions: [...body.organization.permissions] };
  return { ...principal, user, body };
}

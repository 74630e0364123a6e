import type { AuthStrategy } from './auth-options.js';

export const STRATEGIES = ['session', 'jwt', 'oidc', 'oauth2'] as const satisfies readonly AuthStrategy[];

/** How a user proves who they are. */
export type LoginMethod = 'password' | 'oauth2' | 'oidc';

/** What a user is given once they have: a session cookie, or a jwt access token and refresh cookie. */
export type CredentialKind = 'session' | 'jwt';

export const CREDENTIAL_KINDS = ['session', 'jwt'] as const satisfies readonly CredentialKind[];

/**
 * A strategy names a pair: `session` and `jwt` are password logins with that credential; `oauth2`
 * and `oidc` are provider logins whose credential their own section's `strategy` names (README,
 * "Module shape"), given synchronously because it decides the routes (`/refresh` exists for jwt only).
 */
export function loginMethodOf(strategy: AuthStrategy): LoginMethod {
  return strategy === 'session' || strategy === 'jwt' ? 'password' : strategy;
}

export function credentialOf(strategy: AuthStrategy, oauthCredential: CredentialKind | undefined): CredentialKind {
  return strategy === 'session' || strategy === 'jwt' ? strategy : (oauthCredential ?? 'session');
}

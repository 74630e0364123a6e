import type { AuthModuleExtras, AuthOptions, AuthStrategy } from './auth-options.js';

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

/**
 * The credential the module's routes are built for, from the extras alone: the `credential` extra,
 * or with `forRoot` (where options and extras are one object) the OAuth section's `strategy`.
 */
export function builtCredentialOf(extras: AuthModuleExtras): CredentialKind {
  const options = extras as AuthModuleExtras & Partial<AuthOptions>;
  const section = extras.strategy === 'oauth2' ? options.oauth2 : extras.strategy === 'oidc' ? options.oidc : undefined;
  return credentialOf(extras.strategy, extras.credential ?? section?.strategy);
}

import type { OAuthMethod } from '../config/login-methods.js';
import type { OAuthProviderConfigBase, OAuthSectionConfig } from '../config/oauth-config.js';
import type { OAuthUserInfo, ProfileColumnsMapper } from '../config/oauth-options.js';
import type { OAuthAttempt } from './oauth-attempt.js';

/** What the authorization request carries besides the client's own parameters. */
export interface AuthorizationRequest {
  state: string;
  /** RFC 7636 S256 challenge, when the provider uses PKCE. */
  codeChallenge?: string;
  nonce?: string;
  /** A re-authentication: the provider must sign the user in again (OIDC Core §3.1.2.1 `prompt=login`; `max_age=0` for OIDC). */
  reauthenticate?: boolean;
}

/** The parameters of `request` in an authorization URL: state, the PKCE challenge (RFC 7636 §4.3), the nonce. */
export function authorizationParameters(request: AuthorizationRequest): Record<string, string> {
  const parameters: Record<string, string> = { state: request.state };
  if (request.codeChallenge) Object.assign(parameters, { code_challenge: request.codeChallenge, code_challenge_method: 'S256' });
  if (request.nonce) parameters.nonce = request.nonce;
  if (request.reauthenticate) {
    // OIDC Core §3.1.2.1: prompt=login asks for a new sign-in; max_age=0 makes the id_token carry auth_time (OIDC Core §2).
    parameters.prompt = 'login';
    if (request.nonce) parameters.max_age = '0';
  }
  return parameters;
}

/**
 * The authorization response as the token exchange needs it: the code alone. The OAuth core has
 * checked `state`, `iss` and `error` once, against the state cookie (RFC 6749 §10.12, RFC 9207),
 * so openid-client is told to skip its own copy of those checks.
 */
export function codeResponseUrl(redirectUri: string, code: string): URL {
  const url = new URL(redirectUri);
  url.search = new URLSearchParams({ code }).toString();
  return url;
}

/** Who the provider says the user is, with the provider's tokens (never stored). */
export interface ProviderIdentity {
  userInfo: OAuthUserInfo;
  /** What the provider sent about the user: the userinfo JSON (oauth2) or the verified id_token claims and userinfo (oidc). */
  profile: Record<string, unknown>;
  accessToken: string;
  refreshToken: string | null;
}

export type OAuthSection = OAuthSectionConfig<OAuthProviderConfigBase>;

/**
 * One configured provider, as the OAuth core uses it: the protocol work of a login method
 * (oauth2: explicit endpoints and a profile mapper; oidc: discovery and a verified id_token).
 */
export interface OAuthProviderClient {
  readonly name: string;
  readonly method: OAuthMethod;
  /** The settings of its method's section (state lifetime, redirects, state key). */
  readonly section: OAuthSection;
  readonly pkce: boolean;
  /** OpenID Connect: a nonce goes with the request and comes back in the id_token. */
  readonly usesNonce: boolean;
  /** The callback URL registered at the provider. */
  readonly redirectUri: string;
  /** The application's columns of a user this provider's first login creates. */
  readonly mapProfileToColumns?: ProfileColumnsMapper;
  /** RFC 9207: the `iss` an authorization response must carry, if it carries one. */
  expectedIssuer(): Promise<string>;
  /** Whether an authorization response without `iss` is refused (the provider says it always sends one). */
  requiresIssuerInResponse(): Promise<boolean>;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /**
   * Exchanges the code and learns who the user is; throws an AuthError on any failure. The identity
   * meets the user-info rules (`checkedUserInfo`): one that breaks them is the provider's failure.
   */
  identify(code: string, attempt: OAuthAttempt): Promise<ProviderIdentity>;
}

/** The configured providers of a login method, by name. */
export interface OAuthProviderRegistry {
  get(name: string): OAuthProviderClient | undefined;
}

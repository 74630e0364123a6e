/** A client registered at the provider (OAuth 2.0 Dynamic Client Registration metadata names). */
export interface ProviderClientOptions {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** The only method the provider accepts from this client. @default 'client_secret_basic' */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
  /** @default 'RS256'; 'HS256' signs with the client secret. */
  id_token_signed_response_alg?: 'RS256' | 'PS256' | 'ES256' | 'Ed25519' | 'EdDSA' | 'HS256';
}

/**
 * What the provider knows about one end-user. devInteractions uses the login name typed into its
 * form as the account id, and oidc-provider always uses the account id as `sub`: the key of
 * `accounts` is therefore both the login name and the `sub`.
 */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /**
   * Leaves `email` and `email_verified` out of the id_token (they stay in userinfo), so that a
   * relying party has to call the UserInfo endpoint (OIDC Core §5.3) to learn them.
   */
  emailOnlyInUserinfo?: boolean;
}

export interface OidcProviderOptions {
  /** @default 0: any free port. */
  port?: number;
  clients: ProviderClientOptions[];
  /**
   * login name (= `sub`) → claims. A login name that is not listed still signs in, as an account
   * with a `sub` and no other claim (no email).
   */
  accounts?: Record<string, ProviderAccount>;
  /**
   * 'required': an authorization request without `code_challenge` is refused (RFC 9700 §2.1.1).
   * 'optional' is oidc-provider's own default for confidential clients: PKCE is checked when the
   * request used it. Either way a `code_verifier` that does not match, or one sent for a request
   * that had no challenge, is refused at the token endpoint with `invalid_grant`.
   * @default 'required'
   */
  pkce?: 'required' | 'optional';
  /**
   * Behave as a plain OAuth 2.0 server (GitHub-like) for the oauth2 strategy: no `iss` in
   * authorization responses, no id_token in token responses, and `openid` added to every
   * authorization request's scope (oidc-provider's userinfo endpoint answers only to access tokens
   * carrying `openid`). Discovery is still served; a plain OAuth 2.0 client does not use it.
   * @default false
   */
  plainOAuth2?: boolean;
  /**
   * Send the RFC 9207 `iss` parameter in authorization responses (oidc-provider 9 always does).
   * @default true, or false with `plainOAuth2`
   */
  authorizationResponseIss?: boolean;
}

/** The provider's endpoints, under the names of OpenID Connect Discovery §3. */
export interface ProviderUrls {
  issuer: string;
  discovery: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
}

/** The routes this harness configures, oidc-provider's defaults written out. */
export const PROVIDER_ROUTES = {
  authorization: '/auth',
  token: '/token',
  userinfo: '/me',
  jwks: '/jwks',
} as const;

export function providerUrls(issuer: string): ProviderUrls {
  return {
    issuer,
    discovery: `${issuer}/.well-known/openid-configuration`,
    authorization_endpoint: `${issuer}${PROVIDER_ROUTES.authorization}`,
    token_endpoint: `${issuer}${PROVIDER_ROUTES.token}`,
    userinfo_endpoint: `${issuer}${PROVIDER_ROUTES.userinfo}`,
    jwks_uri: `${issuer}${PROVIDER_ROUTES.jwks}`,
  };
}

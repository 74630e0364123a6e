/**
 * Who a provider says the user is: from a verified id_token (oidc) or from the application's
 * profile mapper (oauth2). Provider fields such as `email_verified` and `avatar_url` are
 * camelCase here (`emailVerified`, `avatarUrl`), like every name a TypeScript user reads.
 */
export interface OAuthUserInfo {
  /** The provider's name, as configured. */
  provider: string;
  /** The provider's identifier of the user, as a string (at most 255 characters). */
  providerUserId: string;
  email: string | null;
  /** No user is created from an email that is not verified (docs/guides/oauth2.md). */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
}

/** What every OAuth provider entry holds, for the oauth2 and oidc strategies alike. */
export interface OAuthProviderOptionsBase {
  /** Used in the login and callback paths: letters, digits, `-` and `_` (at most 64). */
  name: string;
  clientId: string;
  clientSecret: string;
  /** The scopes asked for. @default oauth2: `[]`; oidc: `['openid', 'email', 'profile']` */
  scopes?: string[];
  /** Send PKCE (S256) with every authorization request (RFC 9700 §2.1.1). @default true */
  pkce?: boolean;
  /** How the client authenticates at the token endpoint. @default 'client_secret_basic' */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /**
   * The callback URL registered at the provider. @default `<baseUrl><prefix>/<oauth2|oidc>/<name>/callback`;
   * any other value is refused at startup.
   */
  redirectUri?: string;
  /**
   * The application's `@SvcInput()` columns of a user created by a first login, from what the
   * provider sent (the userinfo JSON for oauth2; the verified id_token claims and userinfo for
   * oidc) and the identity. Checked by the signup rules: a value that breaks them is left out and
   * logged (docs/guides/linking.md). Runs at each login; used only when the login creates the user.
   * @default unset: a new user gets no application columns
   */
  mapProfileToColumns?: ProfileColumnsMapper;
}

/** See `mapProfileToColumns`. */
export type ProfileColumnsMapper = (profile: Record<string, unknown>, userInfo: OAuthUserInfo) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What a profile mapper gets besides the profile: the provider's access token, and a way to call its APIs. */
export interface ProfileMapperContext {
  provider: string;
  /** The provider's access token: for follow-up calls only; never stored by svc. */
  accessToken: string;
  /** GETs a JSON resource of the provider with the access token (same timeout and TLS rules as svc's own calls). */
  fetchJson(url: string): Promise<unknown>;
}

/** Turns the provider's userinfo JSON into an OAuthUserInfo; may call the provider's APIs. */
export type ProfileMapper = (profile: Record<string, unknown>, context: ProfileMapperContext) => OAuthUserInfo | Promise<OAuthUserInfo>;

/** A plain OAuth 2.0 provider: endpoints given explicitly, no discovery, no signed identity. */
export interface OAuth2ProviderOptions extends OAuthProviderOptionsBase {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  /**
   * The provider's issuer identifier, compared with the `iss` of authorization responses that
   * carry one (RFC 9207, mix-up defence). @default the origin of `authorizationUrl`
   */
  issuer?: string;
  mapProfileToUser: ProfileMapper;
}

/** An OpenID Connect provider, configured through its discovery document. */
export interface OidcProviderOptions extends OAuthProviderOptionsBase {
  /** The issuer identifier; the discovery document's `issuer` must be exactly this. */
  issuer: string;
  /** The only algorithm an id_token may be signed with. @default 'RS256' */
  idTokenSigningAlg?: OidcSigningAlgorithm;
}

export type OidcSigningAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'Ed25519' | 'EdDSA';

/** The `oauth2` and `oidc` sections. */
export interface OAuthSectionOptions<P> {
  /** Signs the state cookie: 32+ characters, random (placeholders are refused). @default derived from `secret` */
  secretKey?: string;
  /**
   * With the `strategy: 'oauth2' | 'oidc'` shorthand only: the credential a login issues. Otherwise
   * the module's `credential` names it, once. @default 'session'
   */
  strategy?: 'session' | 'jwt';
  /** Lifetime of a login attempt (the state cookie). @default 600 (60..3600) */
  stateTtlSeconds?: number;
  /** Where a login without `?redirect=` lands: a same-origin relative path. @default '/' */
  postLoginRedirect?: string;
  /**
   * A same-origin path a failed callback redirects the browser to (303, `?error=<CODE>` added),
   * instead of answering the error body as JSON. @default unset: JSON
   */
  errorRedirect?: string;
  /** Each call to the provider (discovery, token, userinfo, JWKS, the mapper's calls) fails after this. @default 5 (1..30) */
  providerTimeoutSeconds?: number;
  providers: P[];
}

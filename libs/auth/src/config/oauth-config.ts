import type { OidcSigningAlgorithm, ProfileColumnsMapper, ProfileMapper } from './oauth-options.js';

/** A provider entry, validated and defaulted. */
export interface OAuthProviderConfigBase {
  readonly name: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly pkce: boolean;
  readonly tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  readonly redirectUri: string;
  readonly mapProfileToColumns?: ProfileColumnsMapper;
}

export interface OAuth2ProviderConfig extends OAuthProviderConfigBase {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly userinfoUrl: string;
  readonly issuer: string;
  readonly mapProfileToUser: ProfileMapper;
}

export interface OidcProviderConfig extends OAuthProviderConfigBase {
  readonly issuer: string;
  readonly idTokenSigningAlg: OidcSigningAlgorithm;
}

/** The `oauth2` or `oidc` section, validated and defaulted. */
export interface OAuthSectionConfig<P extends OAuthProviderConfigBase> {
  /** Signs the state cookie: the section's `secretKey`, or a key derived from the module's `secret`. */
  readonly secretKey: string;
  readonly stateTtlSeconds: number;
  readonly postLoginRedirect: string;
  /** Where a failed callback redirects, if it does. */
  readonly errorRedirect?: string;
  readonly providerTimeoutSeconds: number;
  readonly providers: readonly P[];
}

import type { OAuthProviderConfigBase, OAuthSectionConfig } from '../../config/oauth-config.js';

/** Injection token of the configured OAuth section (`oauth2` or `oidc`), provided by the login method's parts. */
export const OAUTH_SECTION = Symbol('svc:OAUTH_SECTION');

export type OAuthSection = OAuthSectionConfig<OAuthProviderConfigBase>;

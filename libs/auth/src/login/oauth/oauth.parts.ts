import type { Provider } from '@nestjs/common';
import { AUTH_CONFIG } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { OAuthAccountStore } from './oauth-account.store.js';
import { OAuthAccounts } from './oauth-accounts.service.js';
import { OAuthLogin } from './oauth-login.service.js';
import { OAUTH_SECTION } from './oauth-section.js';
import { OAuthStateCookie } from './oauth-state-cookie.js';
import { OAuthStateTokens } from './oauth-state-tokens.js';

/** The OAuth core's providers, for the login method whose section is `section`. */
export function oauthCoreProviders(section: 'oauth2' | 'oidc'): Provider[] {
  return [
    { provide: OAUTH_SECTION, useFactory: (config: AuthConfig) => config[section], inject: [AUTH_CONFIG] },
    OAuthStateTokens,
    OAuthStateCookie,
    OAuthAccountStore,
    OAuthAccounts,
    OAuthLogin,
  ];
}

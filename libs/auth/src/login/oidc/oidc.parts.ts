import type { LoginMethodParts } from '../../parts.js';
import { oauthCoreProviders } from '../oauth/oauth.parts.js';
import { OidcController } from './oidc.controller.js';
import { OidcProviders } from './oidc-providers.js';

/** Login through OpenID Connect providers, on the OAuth core. */
export const oidcLoginParts: LoginMethodParts = {
  controllers: [OidcController],
  providers: [...oauthCoreProviders('oidc'), OidcProviders],
};

import type { LoginMethodParts } from '../../parts.js';
import { oauthCoreProviders } from '../oauth/oauth.parts.js';
import { OAuth2Controller } from './oauth2.controller.js';
import { OAuth2Providers } from './oauth2-providers.js';

/** Login through plain OAuth 2.0 providers, on the OAuth core. */
export const oauth2LoginParts: LoginMethodParts = {
  controllers: [OAuth2Controller],
  providers: [...oauthCoreProviders('oauth2'), OAuth2Providers],
};

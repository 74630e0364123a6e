import { AuthEvent } from '../events/auth-events.js';
import type { LoginMethodParts } from '../login/login-parts.js';
import { oauthController } from '../oauth/oauth.controller.js';
import { oauthCoreControllers, oauthCoreProviders } from '../oauth/oauth.parts.js';
import { OAuth2Providers } from './oauth2-providers.js';

/** Login through plain OAuth 2.0 providers, on the OAuth core. */
export const oauth2LoginParts: LoginMethodParts = {
  controllers: [
    ...oauthCoreControllers,
    oauthController({
      method: 'oauth2',
      controllerName: 'OAuth2Controller',
      registry: OAuth2Providers,
      announce: (events, request, user, identity) =>
        events.publishAfterResponse(request, AuthEvent.OAuth2LoginAfter, {
          user,
          userInfo: identity.userInfo,
          providerAccessToken: identity.accessToken,
          providerRefreshToken: identity.refreshToken,
        }),
    }),
  ],
  providers: [...oauthCoreProviders, OAuth2Providers],
};

import { AuthEvent } from '../events/auth-events.js';
import type { LoginMethodParts } from '../login/login-parts.js';
import { oauthController } from '../oauth/oauth.controller.js';
import { oauthCoreControllers, oauthCoreProviders } from '../oauth/oauth.parts.js';
import { OidcProviders } from './oidc-providers.js';

/** Login through OpenID Connect providers, on the OAuth core. */
export const oidcLoginParts: LoginMethodParts = {
  controllers: [
    ...oauthCoreControllers,
    oauthController({
      method: 'oidc',
      controllerName: 'OidcController',
      registry: OidcProviders,
      announce: (events, request, user, identity) => events.publishAfterResponse(request, AuthEvent.OidcLoginAfter, { user, userInfo: identity.userInfo }),
    }),
  ],
  providers: [...oauthCoreProviders, OidcProviders],
};

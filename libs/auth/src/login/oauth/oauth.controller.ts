import { Controller, Get, Inject, Param, Query, Req, Res, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { OAuthMethod } from '../../config/login-methods.js';
import { CredentialDelivery } from '../../credentials/credential-delivery.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { UserBody } from '../../users/user-body.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { OAuthLogin } from './oauth-login.service.js';
import type { OAuthProviderRegistry, ProviderIdentity } from './oauth-provider-client.js';

/** What tells the provider login methods apart in their routes: the path, the providers, and the method's own event. */
export interface OAuthRoutes {
  method: OAuthMethod;
  /** The class name Nest reports for the controller. */
  controllerName: string;
  registry: Type<OAuthProviderRegistry>;
  /** Publishes the method's after-login event (`svc.oauth2.login.after`, `svc.oidc.login.after`). */
  announce(events: AuthEventPublisher, request: Request, user: UserBody, identity: ProviderIdentity): void;
}

/**
 * The routes of one provider login method (README, "Login through an OAuth 2.0 provider" and
 * "Login through an OpenID Connect provider"): `/<method>/{provider}/login` and `.../callback`,
 * on the OAuth core. Mounted under the prefix.
 */
export function oauthController(routes: OAuthRoutes): Type {
  @Controller()
  class OAuthController {
    constructor(
      @Inject(routes.registry) private readonly providers: OAuthProviderRegistry,
      private readonly oauth: OAuthLogin,
      private readonly delivery: CredentialDelivery,
      private readonly events: AuthEventPublisher,
      private readonly serializer: UserSerializer,
    ) {}

    /** 302 to the provider, with the state cookie set. */
    @Get(`${routes.method}/:provider/login`)
    @AuthRateLimit()
    async login(@Param('provider') name: string, @Query('redirect') redirect: unknown, @Res() response: Response): Promise<void> {
      const url = await this.oauth.start(this.providers.get(name), redirect, response);
      response.redirect(302, url.href);
    }

    /** 302 to the post-login redirect with the credential set; the method's after-login event after the response. */
    @Get(`${routes.method}/:provider/callback`)
    @AuthRateLimit()
    async callback(@Param('provider') name: string, @Req() request: Request, @Res() response: Response): Promise<void> {
      const { login, redirect, identity } = await this.oauth.finish(this.providers.get(name), request, response);
      this.delivery.asRedirect(response, login, redirect);
      routes.announce(this.events, request, this.serializer.serialize(login.user), identity);
    }
  }
  Object.defineProperty(OAuthController, 'name', { value: routes.controllerName });
  return OAuthController;
}

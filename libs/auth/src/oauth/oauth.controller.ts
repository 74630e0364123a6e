import { Controller, Get, HttpCode, HttpStatus, Inject, Param, Post, Query, Req, Res, type Type, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { OAuthMethod } from '../config/login-methods.js';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import { RequireFreshAuth } from '../credentials/require-fresh-auth.decorator.js';
import { AuthEvent } from '../events/auth-events.js';
import { AuthEventPublisher } from '../events/auth-event-publisher.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import type { UserBody } from '../users/user-body.js';
import { UnprovenMailbox } from '../users/unproven-mailbox.js';
import { UserSerializer } from '../users/user-serializer.service.js';
import { LoginCompletion } from '../login/login-completion.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { newWayInRefusals } from '../users/unproven-mailbox.js';
import { OAuthCallbackErrorFilter } from './oauth-callback-error.filter.js';
import { SecurityNotices } from '../notices/security-notices.js';
import { OAuthLogin } from './oauth-login.service.js';
import type { OAuthProviderRegistry, ProviderIdentity } from './oauth-provider-client.js';
import { providerNamesOf } from './provider-names.js';

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
 * The routes of one provider login method (docs/guides/oauth2.md, "Login
 * through an OpenID Connect provider" and "Linking accounts"): `/<method>/{provider}/login`,
 * `.../link` and `.../callback`, on the OAuth core. Mounted under the prefix.
 */
export function oauthController(routes: OAuthRoutes): Type {
  @Controller()
  class OAuthController {
    constructor(
      @Inject(routes.registry) private readonly providers: OAuthProviderRegistry,
      private readonly oauth: OAuthLogin,
      private readonly completion: LoginCompletion,
      private readonly events: AuthEventPublisher,
      private readonly serializer: UserSerializer,
      private readonly mailbox: UnprovenMailbox,
      private readonly notices: SecurityNotices,
    ) {}

    /** 302 to the provider, with the state cookie set. */
    @SvcRoute((config) => ({
      summary: 'Start a login at the provider (a redirect)',
      success: { status: 302, description: 'To the provider' },
      pathParameters: { provider: providerNamesOf(config, routes.method) },
      errors: ['OAUTH_PROVIDER_UNKNOWN', 'INVALID_REDIRECT', 'OAUTH_PROVIDER_UNAVAILABLE'],
    }))
    @Get(`${routes.method}/:provider/login`)
    @AuthRateLimit()
    async login(@Param('provider') name: string, @Query('redirect') redirect: unknown, @Res() response: Response): Promise<void> {
      const url = await this.oauth.start(this.providers.get(name), redirect, response);
      response.redirect(302, url.href);
    }

    /** 200 `{ url }` of the provider for the signed-in user to link an identity; the state cookie binds the flow to that user. 403 before the email is verified. */
    @SvcRoute((config) => ({
      summary: "Start linking an identity at the provider to the signed-in user's account: the provider's URL to open",
      success: { description: 'The authorization URL; the state cookie is set', body: 'linkUrl' },
      pathParameters: { provider: providerNamesOf(config, routes.method) },
      errors: [...newWayInRefusals(config), 'OAUTH_PROVIDER_UNKNOWN', 'INVALID_REDIRECT', 'OAUTH_PROVIDER_UNAVAILABLE'],
    }))
    @Post(`${routes.method}/:provider/link`)
    @RestrictedWhileImpersonating()
    // Adding a way in needs a recent sign-in (OWASP ASVS 5.0 V7.5.1).
    @RequireFreshAuth()
    @AuthRateLimit()
    @UseGuards(CurrentUserGuard)
    @HttpCode(HttpStatus.OK)
    async link(
      @Param('provider') name: string,
      @Query('redirect') redirect: unknown,
      @AuthBody(emptyBody) _body: object,
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
    ): Promise<{ url: string }> {
      const principal = principalOf(request)!;
      this.mailbox.refuseNewWayIn(principal.user);
      const url = await this.oauth.start(this.providers.get(name), redirect, response, principal);
      return { url: url.href };
    }

    /** 200 `{ url }` of the provider for the signed-in user to confirm it is them with a linked identity (docs/guides/account-security.md). */
    @SvcRoute((config) => ({
      summary: 'Confirm it is you at the provider, with an identity linked to the signed-in user: the provider\'s URL to open (prompt=login)',
      success: { description: 'The authorization URL; the state cookie is set', body: 'linkUrl' },
      pathParameters: { provider: providerNamesOf(config, routes.method) },
      errors: ['OAUTH_PROVIDER_UNKNOWN', 'INVALID_REDIRECT', 'OAUTH_PROVIDER_UNAVAILABLE'],
    }))
    @Post(`${routes.method}/:provider/reauth`)
    @RestrictedWhileImpersonating()
    @AuthRateLimit({ perUser: true })
    @UseGuards(CurrentUserGuard)
    @HttpCode(HttpStatus.OK)
    async reauth(
      @Param('provider') name: string,
      @Query('redirect') redirect: unknown,
      @AuthBody(emptyBody) _body: object,
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
    ): Promise<{ url: string }> {
      const url = await this.oauth.start(this.providers.get(name), redirect, response, undefined, principalOf(request)!);
      return { url: url.href };
    }

    /**
     * A login: 302 to the post-login redirect with the credential set, the method's after-login event
     * after the response. A link: 302 there too, the current credential kept, `svc.account.linked`.
     */
    @SvcRoute((config) => ({
      summary: 'The provider sends the browser back here: a login sets the credential, a link keeps it',
      success: { status: 302, description: 'To the post-login redirect, the credential set', body: 'credential' },
      pathParameters: { provider: providerNamesOf(config, routes.method) },
      // With the section's errorRedirect, OAuthCallbackErrorFilter answers them 303 to it.
      errorRedirect: config[routes.method]?.errorRedirect !== undefined,
      errors: [
        'OAUTH_PROVIDER_UNKNOWN',
        'OAUTH_STATE_INVALID',
        'OAUTH_PROVIDER_ERROR',
        'OAUTH_CODE_REJECTED',
        'OAUTH_PROVIDER_UNAVAILABLE',
        ...(routes.method === 'oidc' ? (['OIDC_ID_TOKEN_INVALID'] as const) : []),
        'OAUTH_EMAIL_MISSING',
        'OAUTH_EMAIL_UNVERIFIED',
        'OAUTH_ACCOUNT_NOT_LINKED',
        'OAUTH_ACCOUNT_ORPHANED',
        'OAUTH_ACCOUNT_LINKED_ELSEWHERE',
        'OAUTH_PROVIDER_ALREADY_LINKED',
        'OAUTH_REAUTH_REFUSED',
        ...newWayInRefusals(config),
        'USER_INACTIVE',
        // beforeOAuthLogin runs in the service.
        'HOOK_ABORTED',
        'HOOK_FAILED',
      ],
    }))
    @Get(`${routes.method}/:provider/callback`)
    @AuthRateLimit()
    @UseFilters(OAuthCallbackErrorFilter)
    async callback(@Param('provider') name: string, @Req() request: Request, @Res() response: Response): Promise<void> {
      const result = await this.oauth.finish(this.providers.get(name), request, response);
      if (result.kind === 'reauth') return response.redirect(302, result.redirect);
      if (result.kind === 'link') {
        response.redirect(302, result.redirect);
        if (result.linked) {
          this.events.publishAfterResponse(request, AuthEvent.AccountLinked, { user: this.serializer.serialize(result.user), method: routes.method, provider: name });
          this.notices.notify(request, result.user, 'identity_linked');
        }
        return;
      }
      const signedIn = this.completion.asRedirect(request, response, result.login, result.redirect);
      if (signedIn) routes.announce(this.events, request, this.serializer.serialize(signedIn), result.identity);
    }
  }
  Object.defineProperty(OAuthController, 'name', { value: routes.controllerName });
  return OAuthController;
}

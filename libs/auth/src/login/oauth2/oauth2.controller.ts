import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CREDENTIAL_ISSUER } from '../../auth.constants.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import type { CredentialIssuer } from '../../credentials/credential-issuer.js';
import { OAuthLogin } from '../oauth/oauth-login.service.js';
import { OAuth2Providers } from './oauth2-providers.js';

/** Login through a plain OAuth 2.0 provider (README, "Login through an OAuth 2.0 provider"). Mounted under the prefix. */
@Controller()
export class OAuth2Controller {
  constructor(
    private readonly providers: OAuth2Providers,
    private readonly oauth: OAuthLogin,
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  /** 302 to the provider, with the state cookie set. */
  @Get('oauth2/:provider/login')
  @AuthRateLimit()
  async login(@Param('provider') name: string, @Query('redirect') redirect: unknown, @Res() response: Response): Promise<void> {
    const url = await this.oauth.start(this.providers.get(name), redirect, response);
    response.redirect(302, url.href);
  }

  /** 302 to the post-login redirect with the credential set; `svc.oauth2.login.after` after the response. */
  @Get('oauth2/:provider/callback')
  @AuthRateLimit()
  async callback(@Param('provider') name: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const { user, credential, redirect, identity } = await this.oauth.finish(this.providers.get(name), request, response);
    this.issuer.deliverAsRedirect(response, credential, redirect);
    this.events.publishAfterResponse(request, AuthEvent.OAuth2LoginAfter, {
      user: this.serializer.serialize(user),
      userInfo: identity.userInfo,
      providerAccessToken: identity.accessToken,
      providerRefreshToken: identity.refreshToken,
    });
  }
}

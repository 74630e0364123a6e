import { Controller, HttpCode, HttpStatus, Inject, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG, CREDENTIAL_ISSUER } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import type { LoginPayload, SignupPayload } from '../../hooks/auth-hooks.js';
import { BeforeHookInterceptor, BodyOperation, payloadOf } from '../../hooks/before-hook.interceptor.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import type { CredentialIssuer } from '../../credentials/credential-issuer.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { PasswordFlows } from './password-flows.service.js';

/**
 * signup and login with a password. The answer is what the credential delivers: the
 * user body and a session cookie, or the token body and a refresh cookie. Mounted under the prefix.
 */
@Controller()
@UseInterceptors(BeforeHookInterceptor)
export class PasswordController {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(CREDENTIAL_ISSUER) private readonly issuer: CredentialIssuer,
    private readonly flows: PasswordFlows,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  @Post('signup')
  @AuthRateLimit()
  @HttpCode(HttpStatus.CREATED)
  @BodyOperation('signup', 'beforeSignup')
  async signup(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    const { user, credential } = await this.flows.signup(payloadOf<SignupPayload>(request), request);
    return credential === undefined ? this.serializer.serialize(user) : this.issuer.deliverAsJson(response, credential, user);
  }

  @Post('login')
  @AuthRateLimit({ perAccount: true })
  @HttpCode(HttpStatus.OK)
  @BodyOperation('login', 'beforeLogin')
  async login(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    const { user, credential } = await this.flows.login(payloadOf<LoginPayload>(request), request);
    this.events.publishAfterResponse(request, AuthEvent.LoginAfter, { user: this.serializer.serialize(user), strategy: this.config.strategy });
    return this.issuer.deliverAsJson(response, credential, user);
  }
}

import { Controller, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../../auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { CredentialDelivery } from '../../credentials/credential-delivery.js';
import { AuthEvent } from '../../events/auth-events.js';
import { AuthEventPublisher } from '../../events/auth-event-publisher.js';
import type { LoginPayload, SignupPayload } from '../../hooks/auth-hooks.js';
import { AuthBody } from '../../http/auth-body.decorator.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import { UserSerializer } from '../../users/user-serializer.service.js';
import { PasswordFlows } from './password-flows.service.js';

/**
 * signup and login with a password. The answer is what the credential delivers: the
 * user body and a session cookie, or the token body and a refresh cookie. Mounted under the prefix.
 */
@Controller()
export class PasswordController {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly flows: PasswordFlows,
    private readonly delivery: CredentialDelivery,
    private readonly events: AuthEventPublisher,
    private readonly serializer: UserSerializer,
  ) {}

  @Post('signup')
  @AuthRateLimit()
  @HttpCode(HttpStatus.CREATED)
  async signup(@AuthBody('signup') payload: SignupPayload, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.delivery.signup(response, await this.flows.signup(payload, request));
  }

  @Post('login')
  @AuthRateLimit({ perAccount: true })
  @HttpCode(HttpStatus.OK)
  async login(@AuthBody('login') payload: LoginPayload, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    const login = await this.flows.login(payload, request);
    this.events.publishAfterResponse(request, AuthEvent.LoginAfter, { user: this.serializer.serialize(login.user), strategy: this.config.credential });
    return this.delivery.asJson(response, login);
  }
}

import { Controller, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CredentialDelivery } from '../credentials/credential-delivery.js';
import type { LoginPayload, SignupPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { LoginCompletion } from '../login/login-completion.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { loginWaitsForVerification } from '../email/email-verification.service.js';
import { PasswordFlows } from './password-flows.service.js';
import { loginBody, signupBody } from './password.requests.js';

/**
 * signup and login with a password. The answer is what the credential delivers: the
 * user body and a session cookie, or the token body and a refresh cookie. Mounted under the prefix.
 */
@Controller()
export class PasswordController {
  constructor(
    private readonly flows: PasswordFlows,
    private readonly delivery: CredentialDelivery,
    private readonly completion: LoginCompletion,
  ) {}

  @SvcRoute((config) => {
    // Signup answers as a login when the credential logs new users in and verification does not hold them back.
    const signsIn = (config.credential === 'jwt' || config.session.loginOnSignup) && !loginWaitsForVerification(config);
    return { summary: 'Create an account' + (signsIn ? ' and sign it in' : ''), success: { description: 'Created', body: signsIn ? 'login' : 'user' }, errors: ['EMAIL_ALREADY_REGISTERED'] };
  })
  @Post('signup')
  @AuthRateLimit()
  @HttpCode(HttpStatus.CREATED)
  async signup(@AuthBody(signupBody) payload: SignupPayload, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.delivery.signup(response, await this.flows.signup(payload, request));
  }

  @SvcRoute((config) => ({
    summary: 'Sign in with email and password' + (config.mfa ? ' (a user with two-step login gets a challenge instead of the credential)' : ''),
    success: config.mfa ? { description: 'Signed in, or a second factor owed', body: 'loginOrChallenge' } : { description: 'Signed in', body: 'login' },
    errors: ['INVALID_CREDENTIALS', 'USER_INACTIVE', ...(loginWaitsForVerification(config) ? (['EMAIL_NOT_VERIFIED'] as const) : [])],
  }))
  @Post('login')
  // Per address, and per account and address counting failed attempts only (docs/guides/rate-limiting.md).
  @AuthRateLimit({ accountFailures: true })
  @HttpCode(HttpStatus.OK)
  async login(@AuthBody(loginBody) payload: LoginPayload, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.completion.asJson(request, response, await this.flows.login(payload, request));
  }
}

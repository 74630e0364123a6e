import { Controller, HttpCode, HttpStatus, Post, Req, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import type { ForgotPasswordPayload, ResetPasswordPayload } from '../../hooks/auth-hooks.js';
import { BeforeHookInterceptor, BodyOperation, payloadOf } from '../../hooks/before-hook.interceptor.js';
import { AuthRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import { PasswordRecovery } from './password-recovery.service.js';

/** forgot-password and reset-password of the session and jwt strategies (README, "Password recovery"). Mounted under the prefix. */
@Controller()
@UseInterceptors(BeforeHookInterceptor)
export class PasswordRecoveryController {
  constructor(private readonly recovery: PasswordRecovery) {}

  /** 202 with an empty body, whatever the email (OWASP Forgot Password Cheat Sheet: no account enumeration). */
  @Post('forgot-password')
  @AuthRateLimit({ perAccount: true })
  @HttpCode(HttpStatus.ACCEPTED)
  @BodyOperation('forgotPassword', 'beforeForgotPassword')
  forgotPassword(@Req() request: Request): void {
    this.recovery.requestReset(payloadOf<ForgotPasswordPayload>(request), request);
  }

  /** 204; no credential is issued: the user logs in with the new password. */
  @Post('reset-password')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  @BodyOperation('resetPassword', 'beforeResetPassword')
  async resetPassword(@Req() request: Request): Promise<void> {
    await this.recovery.resetPassword(payloadOf<ResetPasswordPayload>(request), request);
  }
}

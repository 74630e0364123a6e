import { Controller, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { ForgotPasswordPayload, ResetPasswordPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { PasswordRecovery } from './password-recovery.service.js';
import { forgotPasswordBody, resetPasswordBody } from './password.requests.js';

/** forgot-password and reset-password (docs/decisions/0014-password-recovery.md). Mounted under the prefix. */
@Controller()
export class PasswordRecoveryController {
  constructor(private readonly recovery: PasswordRecovery) {}

  /**
   * 202 with an empty body, whatever the email (OWASP Forgot Password Cheat Sheet: no account
   * enumeration) and whatever the account's count: that is counted after the response.
   */
  @SvcRoute({ summary: 'Ask for a password-reset mail (the same answer whether or not the email exists)', success: { description: 'Accepted' } })
  @Post('forgot-password')
  @AuthRateLimit()
  @HttpCode(HttpStatus.ACCEPTED)
  forgotPassword(@AuthBody(forgotPasswordBody) payload: ForgotPasswordPayload, @Req() request: Request): void {
    this.recovery.requestReset(payload, request);
  }

  /** 204; no credential is issued: the user logs in with the new password. */
  @SvcRoute({ summary: 'Set a new password with a mailed token; every credential of the user ends', success: { description: 'Password set' }, errors: ['RESET_TOKEN_INVALID'] })
  @Post('reset-password')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async resetPassword(@AuthBody(resetPasswordBody) payload: ResetPasswordPayload, @Req() request: Request): Promise<void> {
    await this.recovery.resetPassword(payload, request);
  }
}

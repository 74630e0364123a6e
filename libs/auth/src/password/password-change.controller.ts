import { Controller, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { ChangePasswordPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { PasswordChange } from './password-change.service.js';
import { changePasswordBody } from './password.requests.js';

/** change-password of a signed-in user (docs/guides/passwords.md). Mounted under the prefix. */
@Controller()
export class PasswordChangeController {
  constructor(private readonly change: PasswordChange) {}

  /** 204; the user's other sessions or refresh families are ended, the presented credential stays. */
  @SvcRoute({ summary: "Change the signed-in user's password; the user's other credentials end", success: { description: 'Password changed' }, errors: ['CURRENT_PASSWORD_INVALID'] })
  @Post('change-password')
  @RestrictedWhileImpersonating()
  // Per address and per user: a stolen session cannot spread guesses of the password over addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async changePassword(@AuthBody(changePasswordBody) payload: ChangePasswordPayload, @Req() request: Request): Promise<void> {
    await this.change.changePassword(principalOf(request)!, payload, request);
  }
}

import { Controller, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { ChangePasswordPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { PasswordChange } from './password-change.service.js';

/** change-password of a signed-in user (docs/guides/passwords.md). Mounted under the prefix. */
@Controller()
export class PasswordChangeController {
  constructor(private readonly change: PasswordChange) {}

  /** 204; the user's other sessions or refresh families are ended, the presented credential stays. */
  @Post('change-password')
  @RestrictedWhileImpersonating()
  // Per address and per user: a stolen session cannot spread guesses of the password over addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async changePassword(@AuthBody('changePassword') payload: ChangePasswordPayload, @Req() request: Request): Promise<void> {
    await this.change.changePassword(principalOf(request)!, payload, request);
  }
}

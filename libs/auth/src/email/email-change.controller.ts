import { Controller, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { ChangeEmailPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { EmailChange } from './email-change.service.js';
import { EmailLifecycleOn } from './email-lifecycle.guard.js';
import type { EmailTokenPayload } from './email-verification.controller.js';

/** change-email, confirm-email and cancel-email-change (docs/guides/email.md). Mounted under the prefix. */
@Controller()
@UseGuards(EmailLifecycleOn)
export class EmailChangeController {
  constructor(private readonly change: EmailChange) {}

  /** 202 whether or not the new address is taken (no enumeration): the messages differ, not the answer. */
  @Post('change-email')
  @RestrictedWhileImpersonating()
  // Per address and per user: a stolen session cannot spread guesses of the password over addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.ACCEPTED)
  async changeEmail(@AuthBody('changeEmail') payload: ChangeEmailPayload, @Req() request: Request): Promise<void> {
    await this.change.request(principalOf(request)!, payload, request);
  }

  /** 204: the email is the new address, verified. A mailed link: no credential needed. */
  @Post('confirm-email')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async confirmEmail(@AuthBody('emailToken') payload: EmailTokenPayload, @Req() request: Request): Promise<void> {
    await this.change.confirm(payload.token.reveal(), request);
  }

  /** 204: every pending change of email is void and every credential of the user ended. A mailed link: no credential needed. */
  @Post('cancel-email-change')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async cancelEmailChange(@AuthBody('emailToken') payload: EmailTokenPayload, @Req() request: Request): Promise<void> {
    await this.change.cancel(payload.token.reveal(), request);
  }
}

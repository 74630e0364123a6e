import { Controller, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { ChangeEmailPayload } from '../hooks/auth-hooks.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { EmailChange } from './email-change.service.js';
import { EmailLifecycleOn } from './email-lifecycle.guard.js';
import type { EmailTokenPayload } from './email-verification.controller.js';
import { changeEmailBody, emailTokenBody } from './email.requests.js';

/** change-email, confirm-email and cancel-email-change (docs/guides/email.md). Mounted under the prefix. */
@Controller()
@UseGuards(EmailLifecycleOn)
export class EmailChangeController {
  constructor(private readonly change: EmailChange) {}

  /** 202 whether or not the new address is taken (no enumeration): the messages differ, not the answer. */
  @SvcRoute({
    summary: "Ask to change the signed-in user's email: a confirmation to the new address, a notice with a cancel link to the old (the same answer whether or not the new one is taken)",
    success: { description: 'Accepted' },
    errors: ['INVALID_CREDENTIALS'],
  })
  @Post('change-email')
  @RestrictedWhileImpersonating()
  // Per address and per user: a stolen session cannot spread guesses of the password over addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.ACCEPTED)
  async changeEmail(@AuthBody(changeEmailBody) payload: ChangeEmailPayload, @Req() request: Request): Promise<void> {
    await this.change.request(principalOf(request)!, payload, request);
  }

  /** 204: the email is the new address, verified. A mailed link: no credential needed. */
  @SvcRoute({
    summary: "Switch the user's email to the new address with its mailed token; every other credential of the user ends",
    success: { description: 'Email changed' },
    errors: ['VERIFICATION_TOKEN_INVALID', 'EMAIL_ALREADY_REGISTERED'],
  })
  @Post('confirm-email')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async confirmEmail(@AuthBody(emailTokenBody) payload: EmailTokenPayload, @Req() request: Request): Promise<void> {
    await this.change.confirm(payload.token.reveal(), request);
  }

  /** 204: every pending change of email is void and every credential of the user ended. A mailed link: no credential needed. */
  @SvcRoute({
    summary: "Cancel a pending change of the user's email with the token of the notice to the old address; every credential of the user ends",
    success: { description: 'Change cancelled' },
    errors: ['VERIFICATION_TOKEN_INVALID'],
  })
  @Post('cancel-email-change')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async cancelEmailChange(@AuthBody(emailTokenBody) payload: EmailTokenPayload, @Req() request: Request): Promise<void> {
    await this.change.cancel(payload.token.reveal(), request);
  }
}

import { Controller, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import type { SecretString } from '../hooks/secret-string.js';
import { emptyBody } from '../http/auth-body-schema.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { EmailLifecycleOn } from './email-lifecycle.guard.js';
import { EmailVerification } from './email-verification.service.js';
import { emailTokenBody } from './email.requests.js';

/** A mailed token, as `POST /verify-email`, `POST /confirm-email` and `POST /cancel-email-change` receive it. */
export interface EmailTokenPayload {
  token: SecretString;
}

/** verify-email and send-verification (docs/guides/email.md). Mounted under the prefix. */
@Controller()
@UseGuards(EmailLifecycleOn)
export class EmailVerificationController {
  constructor(private readonly verification: EmailVerification) {}

  /** 204: the email is verified. No credential needed: the token is the proof; the first one reclaims the account. */
  @SvcRoute({
    summary: "Verify the user's email with a mailed token; the first proof reclaims the account (every other credential ends, ways in added before it are removed)",
    success: { description: 'Email verified' },
    errors: ['VERIFICATION_TOKEN_INVALID'],
  })
  @Post('verify-email')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  async verifyEmail(@AuthBody(emailTokenBody) payload: EmailTokenPayload, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.verification.verify(payload.token.reveal(), request, response);
  }

  /** 202: a new message is on its way (the older link stops working). */
  @SvcRoute({
    summary: 'Mail the signed-in user a new verification link (the older one stops working)',
    success: { description: 'Accepted' },
    // beforeSendVerification runs in the service.
    errors: ['HOOK_ABORTED', 'HOOK_FAILED', 'EMAIL_ALREADY_VERIFIED'],
  })
  @Post('send-verification')
  // Per address and per user: one account cannot flood its mailbox from many addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.ACCEPTED)
  async sendVerification(@AuthBody(emptyBody) _body: object, @Req() request: Request): Promise<void> {
    await this.verification.sendAgain(principalOf(request)!, request);
  }
}

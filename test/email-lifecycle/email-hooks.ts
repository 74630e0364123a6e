import { Injectable } from '@nestjs/common';
import { AuthEvent, type AuthHooks, type ChangeEmailPayload, type EmailVerificationRequestedEvent, HookAbort, OnAuthEvent, type SendVerificationPayload } from '#svc/auth';

/**
 * Before-hooks that refuse what a test marks: a new verification message for an address starting
 * with `nomail`, a change of email to `@blocked.test`. The refusal says what the hook was given,
 * so a test reads it from the answer.
 */
@Injectable()
export class EmailHooks implements AuthHooks {
  beforeSendVerification(payload: SendVerificationPayload): SendVerificationPayload {
    if (payload.user.email.startsWith('nomail')) throw new HookAbort(`no more mail for ${payload.user.email} (verified: ${String(payload.user.emailVerified)})`, 429);
    return payload;
  }

  beforeChangeEmail(payload: ChangeEmailPayload): ChangeEmailPayload {
    if (payload.newEmail.endsWith('@blocked.test')) throw new HookAbort(`not to ${payload.newEmail} (password ${String(payload.password)}, ${JSON.stringify(payload)})`);
    return payload;
  }
}

/** A mailer that fails for addresses starting with `crash`, quoting the message it could not send (a careless error message). */
@Injectable()
export class CrashingMailer {
  @OnAuthEvent(AuthEvent.EmailVerificationRequested)
  send(event: EmailVerificationRequestedEvent): void {
    if (event.user.email.startsWith('crash')) throw new Error(`could not mail ${event.link} to ${event.user.email}`);
  }
}

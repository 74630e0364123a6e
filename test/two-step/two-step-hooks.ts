import { Injectable } from '@nestjs/common';
import { type AuthHooks, HookAbort, type MfaEnablePayload } from '#svc/auth';

/** Refuses two-step login to addresses starting with `nomfa`, saying whom it was asked about. */
@Injectable()
export class TwoStepHooks implements AuthHooks {
  beforeMfaEnable(payload: MfaEnablePayload): MfaEnablePayload {
    if (payload.user.email.startsWith('nomfa')) throw new HookAbort(`not for ${payload.user.email} (totp: ${String((payload.user.mfa as { totp: boolean }).totp)})`);
    return payload;
  }
}

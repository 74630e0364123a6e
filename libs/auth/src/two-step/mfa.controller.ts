import { Controller, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUserGuard, principalOf } from '../credentials/current-user.guard.js';
import { RestrictedWhileImpersonating } from '../credentials/impersonation-restriction.js';
import type { SecretString } from '../hooks/secret-string.js';
import { AuthBody } from '../http/auth-body.decorator.js';
import { LoginCompletion } from '../login/login-completion.js';
import { AuthRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { SvcRoute } from '../http/svc-route.decorator.js';
import { newWayInRefusals } from '../users/unproven-mailbox.js';
import type { MfaAnswer } from './mfa-proof.js';
import { MfaSettings, type TotpSetupBody } from './mfa-settings.service.js';
import { MfaVerification } from './mfa-verify.service.js';
import { mfaCodeBody, mfaConfirmBody, mfaPasswordBody, mfaVerifyBody } from './mfa.requests.js';

/** The bodies of the two-step routes, as the before-hooks interceptor hands them over (secrets wrapped). */
interface PasswordBody {
  password: SecretString;
}
interface CodeBody {
  code: SecretString;
}
interface AnswerBody {
  code?: SecretString;
  recoveryCode?: SecretString;
}

/**
 * Two-step login (docs/guides/two-step.md): the signed-in user's settings under `/mfa/totp/*` and
 * the login's second step, `/mfa/verify`. Mounted under the prefix with the `mfa` section only.
 */
@Controller()
export class MfaController {
  constructor(
    private readonly settings: MfaSettings,
    private readonly verification: MfaVerification,
    private readonly completion: LoginCompletion,
  ) {}

  /** 200: the new secret (base32), its otpauth URL and QR code; nothing is on until enable. */
  @SvcRoute((config) => ({
    summary: 'Start setting up an authenticator app: a new secret, its otpauth URL and QR code (nothing is on until enable)',
    success: { description: 'The secret, shown this once', body: 'mfaSetup' },
    errors: [...newWayInRefusals(config), 'CURRENT_PASSWORD_INVALID', 'MFA_ALREADY_ENABLED'],
  }))
  @Post('mfa/totp/setup')
  @RestrictedWhileImpersonating()
  // Per address and per user: a stolen session cannot spread guesses of the password over addresses.
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  setup(@AuthBody(mfaPasswordBody) body: PasswordBody, @Req() request: Request): Promise<TotpSetupBody> {
    return this.settings.setup(principalOf(request)!, body.password.reveal());
  }

  /** 200: the ten recovery codes, shown this once. */
  @SvcRoute((config) => ({
    summary: 'Turn two-step login on with a first code of the app; the ten recovery codes',
    success: { description: 'On; the recovery codes, shown this once', body: 'recoveryCodes' },
    // beforeMfaEnable runs in the service.
    errors: [...newWayInRefusals(config), 'MFA_CODE_INVALID', 'MFA_ALREADY_ENABLED', 'MFA_SETUP_REQUIRED', 'HOOK_ABORTED', 'HOOK_FAILED'],
  }))
  @Post('mfa/totp/enable')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  enable(@AuthBody(mfaCodeBody) body: CodeBody, @Req() request: Request): Promise<{ recoveryCodes: string[] }> {
    return this.settings.enable(principalOf(request)!, body.code.reveal(), request);
  }

  /** 204: two-step login is off; the secret and the recovery codes are deleted. */
  @SvcRoute({
    summary: 'Turn two-step login off (the password, and a code or a recovery code)',
    success: { description: 'Off; the secret and the recovery codes deleted' },
    errors: ['CURRENT_PASSWORD_INVALID', 'MFA_CODE_INVALID', 'MFA_NOT_ENABLED'],
  })
  @Post('mfa/totp/disable')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  async disable(@AuthBody(mfaConfirmBody) body: PasswordBody & AnswerBody, @Req() request: Request): Promise<void> {
    await this.settings.disable(principalOf(request)!, body.password.reveal(), answerOf(body), request);
  }

  /** 200: ten new recovery codes; the earlier ones stop working. */
  @SvcRoute({
    summary: 'Ten new recovery codes (the password, and a code or a recovery code); the earlier ones stop working',
    success: { description: 'The new codes, shown this once', body: 'recoveryCodes' },
    errors: ['CURRENT_PASSWORD_INVALID', 'MFA_CODE_INVALID', 'MFA_NOT_ENABLED'],
  })
  @Post('mfa/recovery-codes')
  @RestrictedWhileImpersonating()
  @AuthRateLimit({ perUser: true })
  @UseGuards(CurrentUserGuard)
  @HttpCode(HttpStatus.OK)
  regenerate(@AuthBody(mfaConfirmBody) body: PasswordBody & AnswerBody, @Req() request: Request): Promise<{ recoveryCodes: string[] }> {
    return this.settings.regenerate(principalOf(request)!, body.password.reveal(), answerOf(body), request);
  }

  /** 200: the credential, exactly as a login answers it; the challenge cookie is cleared. */
  @SvcRoute({
    summary: "The login's second step: a code or a recovery code with the challenge cookie; the credential, as a login gives it",
    success: { description: 'Signed in', body: 'login' },
    // Five attempts a challenge, whatever the rateLimit section (docs/guides/two-step.md).
    errors: ['MFA_CODE_INVALID', 'MFA_CHALLENGE_INVALID', 'RATE_LIMITED'],
    errorStatus: { MFA_CODE_INVALID: 401 },
  })
  @Post('mfa/verify')
  @AuthRateLimit()
  @HttpCode(HttpStatus.OK)
  async verify(@AuthBody(mfaVerifyBody) body: AnswerBody, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    return this.completion.asJson(request, response, await this.verification.verify(request, response, answerOf(body)));
  }
}

/** The schema let exactly one of the two through. */
function answerOf(body: AnswerBody): MfaAnswer {
  return body.code !== undefined ? { code: body.code.reveal() } : { recoveryCode: body.recoveryCode!.reveal() };
}

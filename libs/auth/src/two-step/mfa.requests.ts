import { IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';

/** An authenticator code: RFC 6238 with 6 digits, as a string (a leading zero is a digit). */
const TotpCodeField = (): PropertyDecorator => {
  const isString = IsString();
  const sixDigits = Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' });
  return (target, property) => {
    isString(target, property);
    sixDigits(target, property);
  };
};

/**
 * A second factor's answer: `code`, or `recoveryCode`, exactly one of them. Each is checked when
 * given (or when neither is, so the problem names `code`).
 */
function secondFactorFields(schema: Function): void {
  const prototype = schema.prototype as object;
  ValidateIf((body: { code?: unknown; recoveryCode?: unknown }) => body.code !== undefined || body.recoveryCode === undefined)(prototype, 'code');
  TotpCodeField()(prototype, 'code');
  ValidateIf((body: { recoveryCode?: unknown }) => body.recoveryCode !== undefined)(prototype, 'recoveryCode');
  IsString()(prototype, 'recoveryCode');
  MaxLength(64)(prototype, 'recoveryCode');
  ValidateBy({
    name: 'eitherCodeOrRecoveryCode',
    validator: { validate: (_value, args) => (args?.object as { code?: unknown }).code === undefined, defaultMessage: () => 'give either code or recoveryCode, not both' },
  })(prototype, 'recoveryCode');
}

class MfaPasswordRequest {
  // The current password, checked like a login password: one set under older length rules still counts.
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}

/** Two-step setup: the current password. */
export const mfaPasswordBody: AuthBodySchema = { name: 'SvcMfaPasswordRequest', secrets: ['password'], build: () => MfaPasswordRequest };

class MfaCodeRequest {
  @TotpCodeField()
  code: string;
}

/** Two-step enable: a first authenticator code. */
export const mfaCodeBody: AuthBodySchema = { name: 'SvcMfaCodeRequest', secrets: ['code'], build: () => MfaCodeRequest };

class MfaConfirmRequest extends MfaPasswordRequest {
  code?: string;
  recoveryCode?: string;
}
secondFactorFields(MfaConfirmRequest);

/** Two-step disable and new recovery codes: the password, and a code or a recovery code. */
export const mfaConfirmBody: AuthBodySchema = { name: 'SvcMfaConfirmRequest', secrets: ['password', 'code', 'recoveryCode'], build: () => MfaConfirmRequest };

class MfaVerifyRequest {
  code?: string;
  recoveryCode?: string;
}
secondFactorFields(MfaVerifyRequest);

/** The login's second step: a code or a recovery code. */
export const mfaVerifyBody: AuthBodySchema = { name: 'SvcMfaVerifyRequest', secrets: ['code', 'recoveryCode'], build: () => MfaVerifyRequest };

import type { Type } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { getMetadataStorage, IsEmail, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { hasControlOrFormatCharacter, MAX_EMAIL_LENGTH, normalizeEmail } from './email.js';
import { IsPassword } from './password-rules.js';
import { inputColumnsOf } from './svc-columns.decorators.js';
import { assertionJsonOf, registrationJsonOf } from './webauthn-response-rules.js';

/** The request schemas of the library's routes, built once at startup (docs/guides/application.md). */
export interface AuthSchemas {
  signup: Type<object>;
  login: Type<object>;
  forgotPassword: Type<object>;
  resetPassword: Type<object>;
  changePassword: Type<object>;
  /** verify-email and confirm-email: a mailed token. */
  emailToken: Type<object>;
  changeEmail: Type<object>;
  /** POST /passkeys/register: `{ response, name? }`. */
  passkeyRegistration: Type<object>;
  /** POST /passkeys/login: `{ response }`. */
  passkeyLogin: Type<object>;
  /** PATCH /passkeys/{id}: `{ name }`. */
  passkeyName: Type<object>;
  /** A route that takes no body: nothing, or `{}`. */
  empty: Type<object>;
  /** Two-step setup: the current password. */
  mfaPassword: Type<object>;
  /** Two-step enable: a first authenticator code. */
  mfaCode: Type<object>;
  /** Two-step disable and new recovery codes: the password, and a code or a recovery code. */
  mfaConfirm: Type<object>;
  /** The login's second step: a code or a recovery code. */
  mfaVerify: Type<object>;
}

/** The longest name a passkey may be given. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

export type AuthSchemaName = keyof AuthSchemas;

/**
 * An email field: normalised (NFKC, trimmed, lower-cased) before the other rules look at it, and
 * refused when it holds a control or format character (kept as sent, so the rule below sees it).
 */
const EmailField = (): PropertyDecorator => {
  const normalize = Transform(({ value }) => (typeof value === 'string' && !hasControlOrFormatCharacter(value) ? normalizeEmail(value) : value));
  const refuseLookAlikes = ValidateBy({
    name: 'hasNoControlOrFormatCharacter',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !hasControlOrFormatCharacter(value),
      defaultMessage: (args) => `${args?.property ?? 'email'} must not contain control or format characters (such as zero-width spaces or bidi overrides)`,
    },
  });
  return (target, property) => {
    normalize(target, property);
    refuseLookAlikes(target, property);
    IsString()(target, property);
    MaxLength(MAX_EMAIL_LENGTH)(target, property);
  };
};

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
 * A passkey's name, as its owner sees it in their list: trimmed, 1 to 64 characters, no control or
 * format character (a bidi override would make one name pass for another).
 */
const PasskeyNameField = (): PropertyDecorator => {
  const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
  const refuseInvisible = ValidateBy({
    name: 'hasNoControlOrFormatCharacter',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !hasControlOrFormatCharacter(value),
      defaultMessage: () => 'name must not contain control or format characters',
    },
  });
  return (target, property) => {
    trim(target, property);
    refuseInvisible(target, property);
    IsString()(target, property);
    MinLength(1)(target, property);
    MaxLength(MAX_PASSKEY_NAME_LENGTH)(target, property);
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

/**
 * The `response` field of a passkey route: a `PublicKeyCredential` as JSON, reduced to its known
 * members (docs/guides/passkeys.md); anything else is a 400 naming the field.
 */
const WebAuthnResponseField = (kind: 'registration' | 'assertion'): PropertyDecorator => {
  const reduce = Transform(({ value }) => (kind === 'registration' ? registrationJsonOf(value) : assertionJsonOf(value)) ?? null);
  const isObject = IsObject({ message: `response must be a WebAuthn ${kind} (a PublicKeyCredential as JSON)` });
  return (target, property) => {
    reduce(target, property);
    isObject(target, property);
  };
};

/** Columns that only the library writes: tagging them `@SvcInput()` would let a client set them. */
const LIBRARY_OWNED = ['id', 'email', 'emailSkeleton', 'emailVerifiedAt', 'password', 'passwordHash', 'isActive', 'mfaTotpEnabled', 'createdAt', 'updatedAt'];

export function buildAuthSchemas(userEntity: Function, password: { minLength: number; maxLength: number }): AuthSchemas {
  class SignupRequest {
    @EmailField()
    @IsEmail({}, { message: 'email must be an email address' })
    email: string;

    @IsPassword(password)
    password: string;
  }
  copyInputRules(userEntity, SignupRequest);

  class LoginRequest {
    @EmailField()
    email: string;

    // Login checks only the shape: a password set under older length rules must still log in.
    @IsString()
    @MinLength(1)
    @MaxLength(1024)
    password: string;
  }

  class ForgotPasswordRequest {
    @EmailField()
    email: string;
  }

  class ResetPasswordRequest {
    @IsString()
    @MinLength(1)
    @MaxLength(256)
    token: string;

    @IsPassword(password)
    password: string;
  }

  class ChangePasswordRequest {
    // Checked like a login password: one set under older length rules must still be accepted.
    @IsString()
    @MinLength(1)
    @MaxLength(1024)
    current_password: string;

    @IsPassword(password)
    new_password: string;
  }

  class EmailTokenRequest {
    @IsString()
    @MinLength(1)
    @MaxLength(256)
    token: string;
  }

  class ChangeEmailRequest {
    @EmailField()
    @IsEmail({}, { message: 'newEmail must be an email address' })
    newEmail: string;

    // The current password, checked like a login password: one set under older length rules still counts.
    @IsString()
    @MinLength(1)
    @MaxLength(1024)
    password: string;
  }

  class PasskeyRegistrationRequest {
    @WebAuthnResponseField('registration')
    response: object;

    @IsOptional()
    @PasskeyNameField()
    name?: string;
  }

  class PasskeyLoginRequest {
    @WebAuthnResponseField('assertion')
    response: object;
  }

  class PasskeyNameRequest {
    @PasskeyNameField()
    name: string;
  }

  class EmptyRequest {}

  class MfaPasswordRequest {
    // The current password, checked like a login password: one set under older length rules still counts.
    @IsString()
    @MinLength(1)
    @MaxLength(1024)
    password: string;
  }

  class MfaCodeRequest {
    @TotpCodeField()
    code: string;
  }

  class MfaConfirmRequest extends MfaPasswordRequest {
    code?: string;
    recoveryCode?: string;
  }
  secondFactorFields(MfaConfirmRequest);

  class MfaVerifyRequest {
    code?: string;
    recoveryCode?: string;
  }
  secondFactorFields(MfaVerifyRequest);

  return {
    signup: SignupRequest,
    login: LoginRequest,
    forgotPassword: ForgotPasswordRequest,
    resetPassword: ResetPasswordRequest,
    changePassword: ChangePasswordRequest,
    emailToken: EmailTokenRequest,
    changeEmail: ChangeEmailRequest,
    passkeyRegistration: PasskeyRegistrationRequest,
    passkeyLogin: PasskeyLoginRequest,
    passkeyName: PasskeyNameRequest,
    empty: EmptyRequest,
    mfaPassword: MfaPasswordRequest,
    mfaCode: MfaCodeRequest,
    mfaConfirm: MfaConfirmRequest,
    mfaVerify: MfaVerifyRequest,
  };
}

/** A class whose validation rules are those of the user's `@SvcInput()` columns, as signup checks them. */
export function inputColumnsSchema(userEntity: Function): Type<object> {
  class InputColumns {}
  copyInputRules(userEntity, InputColumns);
  return InputColumns;
}

/** Gives the signup schema each `@SvcInput()` column with the class-validator rules of the entity. */
function copyInputRules(userEntity: Function, schema: Function): void {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(userEntity, '', true, false);
  for (const column of inputColumnsOf(userEntity)) {
    if (LIBRARY_OWNED.includes(column)) {
      throw new TypeError(`${userEntity.name}.${column} is written by svc only and cannot be tagged @SvcInput()`);
    }
    const columnRules = rules.filter((rule) => rule.propertyName === column);
    if (columnRules.length === 0) {
      throw new TypeError(`${userEntity.name}.${column} is tagged @SvcInput() but has no class-validator decorator (e.g. @IsString())`);
    }
    for (const rule of columnRules) {
      storage.addValidationMetadata(Object.assign(Object.create(Object.getPrototypeOf(rule)), rule, { target: schema }));
    }
  }
}

/** The field names of a request schema: every other key of a body is refused. */
export function fieldsOf(schema: Function): ReadonlySet<string> {
  return new Set(getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false).map((rule) => rule.propertyName));
}

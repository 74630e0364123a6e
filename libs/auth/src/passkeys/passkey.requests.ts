import { Transform } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';
import { hasControlOrFormatCharacter } from '../users/email.js';
import { assertionJsonOf, registrationJsonOf } from '../users/webauthn-response-rules.js';

/** The longest name a passkey may be given. */
const MAX_PASSKEY_NAME_LENGTH = 64;

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

class PasskeyRegistrationRequest {
  @WebAuthnResponseField('registration')
  response: object;

  @IsOptional()
  @PasskeyNameField()
  name?: string;
}

/** POST /passkeys/register: `{ response, name? }`. */
export const passkeyRegistrationBody: AuthBodySchema = { name: 'SvcPasskeyRegistrationRequest', secrets: [], build: () => PasskeyRegistrationRequest };

class PasskeyLoginRequest {
  @WebAuthnResponseField('assertion')
  response: object;
}

/** POST /passkeys/login: `{ response }`. */
export const passkeyLoginBody: AuthBodySchema = { name: 'SvcPasskeyLoginRequest', secrets: [], build: () => PasskeyLoginRequest };

class PasskeyNameRequest {
  @PasskeyNameField()
  name: string;
}

/** PATCH /passkeys/{id}: `{ name }`. */
export const passkeyNameBody: AuthBodySchema = { name: 'SvcPasskeyNameRequest', secrets: [], build: () => PasskeyNameRequest };

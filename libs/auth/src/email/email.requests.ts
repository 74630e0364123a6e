import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';
import { EmailField } from '../users/email-field.js';

class EmailTokenRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token: string;
}

/** POST /verify-email, /confirm-email and /cancel-email-change: a mailed token. */
export const emailTokenBody: AuthBodySchema = { name: 'SvcEmailTokenRequest', secrets: ['token'], build: () => EmailTokenRequest };

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

/** POST /change-email: the new address and the current password. */
export const changeEmailBody: AuthBodySchema = { name: 'SvcChangeEmailRequest', hook: 'beforeChangeEmail', secrets: ['password'], build: () => ChangeEmailRequest };

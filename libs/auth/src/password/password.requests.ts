import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import type { AuthConfig } from '../config/auth-config.js';
import type { AuthBodySchema } from '../http/auth-body-schema.js';
import { EmailField } from '../users/email-field.js';
import { copyInputRules } from '../users/input-columns.js';
import { IsPassword } from '../users/password-rules.js';

/** POST /signup: the email, a password under the configured rules, and the user entity's `@SvcInput()` columns. */
export const signupBody: AuthBodySchema = {
  name: 'SvcSignupRequest',
  hook: 'beforeSignup',
  secrets: ['password'],
  build: (config: AuthConfig) => {
    class SignupRequest {
      @EmailField()
      @IsEmail({}, { message: 'email must be an email address' })
      email: string;

      @IsPassword(config.password)
      password: string;
    }
    copyInputRules(config.userEntity, SignupRequest);
    return SignupRequest;
  },
};

class LoginRequest {
  @EmailField()
  email: string;

  // Login checks only the shape: a password set under older length rules must still log in.
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}

/** POST /login. */
export const loginBody: AuthBodySchema = { name: 'SvcLoginRequest', hook: 'beforeLogin', secrets: ['password'], build: () => LoginRequest };

class ForgotPasswordRequest {
  @EmailField()
  email: string;
}

/** POST /forgot-password. */
export const forgotPasswordBody: AuthBodySchema = { name: 'SvcForgotPasswordRequest', hook: 'beforeForgotPassword', secrets: [], build: () => ForgotPasswordRequest };

/** POST /reset-password: the mailed token and a new password under the configured rules. */
export const resetPasswordBody: AuthBodySchema = {
  name: 'SvcResetPasswordRequest',
  hook: 'beforeResetPassword',
  secrets: ['token', 'password'],
  build: (config: AuthConfig) => {
    class ResetPasswordRequest {
      @IsString()
      @MinLength(1)
      @MaxLength(256)
      token: string;

      @IsPassword(config.password)
      password: string;
    }
    return ResetPasswordRequest;
  },
};

/** POST /change-password: the current password and a new one under the configured rules. */
export const changePasswordBody: AuthBodySchema = {
  name: 'SvcChangePasswordRequest',
  hook: 'beforeChangePassword',
  secrets: ['current_password', 'new_password'],
  build: (config: AuthConfig) => {
    class ChangePasswordRequest {
      // Checked like a login password: one set under older length rules must still be accepted.
      @IsString()
      @MinLength(1)
      @MaxLength(1024)
      current_password: string;

      @IsPassword(config.password)
      new_password: string;
    }
    return ChangePasswordRequest;
  },
};

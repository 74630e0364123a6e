import type { Request } from 'express';
import type { OAuthUserInfo } from '../config/oauth-options.js';
import type { UserBody } from '../users/user-body.js';
import type { SecretString } from './secret-string.js';

export interface SignupPayload {
  email: string;
  password: SecretString;
  /** The `@SvcInput()` columns. */
  [column: string]: unknown;
}

export interface LoginPayload {
  email: string;
  password: SecretString;
}

export interface LogoutPayload {
  /** The user the presented credential belongs to, or null when there is none. */
  user: UserBody | null;
}

export interface RefreshPayload {
  /** Whether a refresh cookie was presented. */
  hasRefreshToken: boolean;
}

export interface ForgotPasswordPayload {
  email: string;
}

export interface ResetPasswordPayload {
  token: SecretString;
  password: SecretString;
}

/** A signed-in user changing their password (`POST /change-password`). */
export interface ChangePasswordPayload {
  current_password: SecretString;
  new_password: SecretString;
}

/** A signed-in user asking for a new verification message (`POST /send-verification`); refuse to send none. */
export interface SendVerificationPayload {
  user: UserBody;
}

/** A signed-in user asking to change their email (`POST /change-email`); `newEmail` is normalised. */
export interface ChangeEmailPayload {
  newEmail: string;
  password: SecretString;
}

/** An OAuth login or link (oauth2 or oidc) about to resolve its user: nothing has been written yet. */
export interface OAuthLoginPayload {
  provider: string;
  /** Who the provider says the user is; a hook may change it (it is checked again). */
  userInfo: OAuthUserInfo;
  /** Present when a signed-in user is linking this identity to their account (docs/guides/linking.md). */
  link?: { user: UserBody };
}

/** A signed-in user about to turn two-step login on (`POST /mfa/totp/enable`); nothing is written yet. */
export interface MfaEnablePayload {
  user: UserBody;
}

/**
 * Before-hooks: methods of an `@Injectable()` class given to `AuthModule.forRoot({ hooks })`.
 * Each takes the validated payload and the request and returns the payload (possibly changed).
 * Throw `HookAbort` to refuse; any other error fails the request closed with 500 `HOOK_FAILED`.
 */
export interface AuthHooks {
  beforeSignup?(payload: SignupPayload, request: Request): SignupPayload | Promise<SignupPayload>;
  beforeLogin?(payload: LoginPayload, request: Request): LoginPayload | Promise<LoginPayload>;
  beforeLogout?(payload: LogoutPayload, request: Request): LogoutPayload | Promise<LogoutPayload>;
  beforeRefresh?(payload: RefreshPayload, request: Request): RefreshPayload | Promise<RefreshPayload>;
  beforeForgotPassword?(payload: ForgotPasswordPayload, request: Request): ForgotPasswordPayload | Promise<ForgotPasswordPayload>;
  beforeResetPassword?(payload: ResetPasswordPayload, request: Request): ResetPasswordPayload | Promise<ResetPasswordPayload>;
  beforeChangePassword?(payload: ChangePasswordPayload, request: Request): ChangePasswordPayload | Promise<ChangePasswordPayload>;
  beforeSendVerification?(payload: SendVerificationPayload, request: Request): SendVerificationPayload | Promise<SendVerificationPayload>;
  beforeChangeEmail?(payload: ChangeEmailPayload, request: Request): ChangeEmailPayload | Promise<ChangeEmailPayload>;
  beforeOAuthLogin?(payload: OAuthLoginPayload, request: Request): OAuthLoginPayload | Promise<OAuthLoginPayload>;
  beforeMfaEnable?(payload: MfaEnablePayload, request: Request): MfaEnablePayload | Promise<MfaEnablePayload>;
}

export type HookName = keyof AuthHooks;

import type { AuthConfig } from '../config/auth-config.js';

/** The application's page a verification mail links to: `<baseUrl><verifyPath>?token=<token>` (the page POSTs the token). */
export function verificationLink(config: AuthConfig, token: string): string {
  return `${config.baseUrl}${config.emailVerification!.verifyPath}?token=${encodeURIComponent(token)}`;
}

/** The application's page a change-of-email confirmation links to: `<baseUrl><confirmPath>?token=<token>`. */
export function confirmationLink(config: AuthConfig, token: string): string {
  return `${config.baseUrl}${config.emailVerification!.confirmPath}?token=${encodeURIComponent(token)}`;
}

/** The application's page the cancel link of a change-of-email notice opens: `<baseUrl><cancelPath>?token=<token>`. */
export function cancellationLink(config: AuthConfig, token: string): string {
  return `${config.baseUrl}${config.emailVerification!.cancelPath}?token=${encodeURIComponent(token)}`;
}

/** The application's page a reset mail links to: `<baseUrl><password.resetPath>?token=<token>` (the page POSTs the token and the new password). */
export function resetLink(config: AuthConfig, token: string): string {
  return `${config.baseUrl}${config.password.resetPath}?token=${encodeURIComponent(token)}`;
}

import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { EmailVerificationOptions } from './auth-options.js';
import type { LoginMethod } from './login-methods.js';
import { bool, int } from './option-rules.js';
import { safeRedirectPath } from './safe-redirect.js';

/**
 * The `emailVerification` section (docs/guides/email.md): absent, neither
 * feature is on. Both send mail to an address the user gives, and only a password account has one
 * of its own choosing, so the section needs the password method: without it, it would not take effect.
 */
export function validateEmailVerification(section: EmailVerificationOptions | undefined, loginMethods: readonly LoginMethod[]): AuthConfig['emailVerification'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('emailVerification', 'must be an object', section);
  if (!loginMethods.includes('password')) {
    throw new AuthConfigError('emailVerification', "is given but the password login method is not on: it would not take effect (add 'password' to the login extra, or leave the section out)");
  }
  return {
    required: bool('emailVerification.required', section.required, false),
    // OWASP Forgot Password Cheat Sheet: a mailed token expires; at least 5 minutes, at most a week.
    tokenTtlSeconds: int('emailVerification.tokenTtlSeconds', section.tokenTtlSeconds, 86_400, 300, 604_800),
    verifyPath: pagePath('emailVerification.verifyPath', section.verifyPath, '/verify-email'),
    confirmPath: pagePath('emailVerification.confirmPath', section.confirmPath, '/confirm-email'),
    cancelPath: pagePath('emailVerification.cancelPath', section.cancelPath, '/cancel-email-change'),
    sendsMail: bool('emailVerification.sendsMail', section.sendsMail, true),
  };
}

/** A page of the application under `baseUrl`: a same-origin path without query or fragment (the link adds `?token=`). */
export function pagePath(field: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || safeRedirectPath(value) !== value || /[?#]/.test(value)) {
    throw new AuthConfigError(field, 'must be a path starting with a single "/", without query, fragment, spaces or backslashes', value);
  }
  return value;
}

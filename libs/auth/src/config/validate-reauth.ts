import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { ReauthOptions } from './auth-options.js';
import { int } from './option-rules.js';

/** A day: a "recent" sign-in older than that is no step-up at all. */
const DAY_SECONDS = 86_400;

/**
 * The `reauth` section (docs/guides/account-security.md, "Fresh sign-in"). Fresh sign-in is always
 * on: absent, the routes that add or remove a way in still need a sign-in of the last 15 minutes
 * (OWASP ASVS 5.0 V6.3.1 / V7.5.1: re-authenticate before a sensitive change of the account).
 */
export function validateReauth(section: ReauthOptions | undefined): AuthConfig['reauth'] {
  if (section !== undefined && (section === null || typeof section !== 'object' || Array.isArray(section))) throw new AuthConfigError('reauth', 'must be an object', section);
  return { maxAgeSeconds: int('reauth.maxAgeSeconds', section?.maxAgeSeconds, 900, 1, DAY_SECONDS) };
}

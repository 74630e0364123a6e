import { deriveKey } from '../crypto/derive-key.js';
import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { AdminOptions } from './auth-options.js';
import { int } from './option-rules.js';

const HOUR_SECONDS = 3600;

/**
 * The `admin` section (docs/guides/administration.md): absent, no `/admin` routes. Its routes are
 * each behind a permission, so it needs the `authorization` policy; the user list signs its cursors
 * with a key derived from `secret` (or from `jwt.secretKey` or an OAuth `secretKey`), so that every
 * instance accepts the cursors any of them issued and no other.
 */
export function validateAdmin(section: AdminOptions | undefined, hasAuthorization: boolean, keySource: string | undefined): AuthConfig['admin'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('admin', 'must be an object', section);
  if (!hasAuthorization) throw new AuthConfigError('admin', 'needs the authorization section: each admin route is behind a permission of its policy (users:read, users:ban, ...)');
  if (keySource === undefined) {
    throw new AuthConfigError('secret', 'is required with admin: the user list signs its cursors with a key derived from it (or from jwt.secretKey or an OAuth secretKey)');
  }
  return {
    // OWASP ASVS 5.0 V7.3: an impersonation is a short session of its own, never longer than an hour.
    impersonationTtlSeconds: int('admin.impersonationTtlSeconds', section.impersonationTtlSeconds, HOUR_SECONDS, 60, HOUR_SECONDS),
    cursorKey: deriveKey(keySource, 'admin user list cursors'),
  };
}

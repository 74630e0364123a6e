import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { AuditOptions } from './auth-options.js';
import { int } from './option-rules.js';

/** Ten years: longer than any retention rule asks, short enough to stay a date. */
const MAX_RETENTION_DAYS = 3650;

/**
 * The `audit` section (docs/guides/account-security.md): absent, nothing is written and the activity
 * routes do not exist. `retentionDays` is how long an entry is kept before the purge deletes it
 * (OWASP ASVS 5.0 V16.4: logs kept as long as policy says, not forever).
 */
export function validateAudit(section: AuditOptions | undefined): AuthConfig['audit'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('audit', 'must be an object', section);
  for (const key of Object.keys(section)) if (key !== 'retentionDays') throw new AuthConfigError(`audit.${key}`, 'is not an option of the audit section');
  return { retentionDays: int('audit.retentionDays', section.retentionDays, 365, 1, MAX_RETENTION_DAYS) };
}

import type { AuthConfig } from './auth-config.js';
import { AuthConfigError } from './auth-config.error.js';
import type { ApiKeysOptions } from './auth-options.js';
import { int } from './option-rules.js';

/**
 * A key's prefix: a letter, then letters, digits, `_` or `-`; never a `.`, so a key can never be
 * taken for a JWS compact token (RFC 7515 §7.1, three parts joined by dots), nor one for a key.
 */
const PREFIX = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** The `apiKeys` section (docs/guides/machine-access.md): absent, no `/api-keys` routes and no key accepted anywhere. */
export function validateApiKeys(section: ApiKeysOptions | undefined): AuthConfig['apiKeys'] {
  if (section === undefined) return undefined;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) throw new AuthConfigError('apiKeys', 'must be an object', section);
  const prefix = section.prefix ?? 'svc_';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) throw new AuthConfigError('apiKeys.prefix', 'must be 1 to 32 letters, digits, "_" or "-", starting with a letter', prefix);
  return { prefix, maxPerUser: int('apiKeys.maxPerUser', section.maxPerUser, 20, 1, 1000) };
}

import type { LoginMethod } from '#svc/auth';
import { DemoConfigError } from './demo-config.error.js';

const METHODS = ['password', 'oauth2', 'oidc'] as const satisfies readonly LoginMethod[];
const PROVIDER_VARIABLE = { oauth2: 'OAUTH2_PROVIDERS', oidc: 'OIDC_PROVIDERS' } as const;

/**
 * AUTH_LOGIN: a comma list of `password`, `oauth2`, `oidc`, each once. A provider method needs at
 * least one provider in its variable. The result keeps the order of METHODS, whatever the list's.
 */
export function readLoginSet(raw: string, providerCounts: Record<'oauth2' | 'oidc', number>): LoginMethod[] {
  const listed = raw.split(',').map((entry) => entry.trim());
  for (const entry of listed) {
    if (!METHODS.includes(entry as LoginMethod)) throw new DemoConfigError('AUTH_LOGIN', `must be a comma list of ${METHODS.join(', ')} (got "${entry}")`);
  }
  if (new Set(listed).size !== listed.length) throw new DemoConfigError('AUTH_LOGIN', 'lists a method twice');
  for (const method of ['oauth2', 'oidc'] as const) {
    if (listed.includes(method) && providerCounts[method] === 0) {
      throw new DemoConfigError('AUTH_LOGIN', `has ${method}, but ${PROVIDER_VARIABLE[method]} lists no provider`);
    }
  }
  return METHODS.filter((method) => listed.includes(method));
}

import type { Request } from 'express';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a cookie authenticates when the browser says it comes
 * from another origin (docs/decisions/0023-cross-site-requests.md; OWASP CSRF Prevention Cheat Sheet,
 * "Verifying origin with standard headers"). A request with neither Origin nor Sec-Fetch-Site is a non-browser client and passes.
 */
export function assertSameOrigin(request: Request, config: AuthConfig): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!config.trustedOrigins.includes(origin)) throw new AuthError('CSRF_REJECTED');
    return;
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new AuthError('CSRF_REJECTED');
}

import type { Request, Response } from 'express';
import type { CredentialResolver, Principal } from '../credential-resolver.js';

/** RFC 6750 §2.1: the `Bearer` scheme, case-insensitive (RFC 9110 §11.1). */
const BEARER_SCHEME = /^\s*bearer\s/i;

/**
 * The session module's resolver with native clients on (docs/guides/machine-access.md): a request
 * with an `Authorization: Bearer` header is a native client's and is resolved by the jwt resolver
 * alone (a refused token is 401, never a fallback to a cookie); any other request by the browser
 * credential's. A bearer request carries no cookie the browser adds on its own, so no cross-site
 * check applies to it (OWASP CSRF Prevention Cheat Sheet).
 */
export class NativeAwareResolver implements CredentialResolver {
  constructor(
    private readonly browser: CredentialResolver,
    private readonly bearer: CredentialResolver,
  ) {}

  resolve(request: Request, response: Response): Promise<Principal> {
    const header = request.headers.authorization;
    if (typeof header === 'string' && BEARER_SCHEME.test(header)) return this.bearer.resolve(request, response);
    return this.browser.resolve(request, response);
  }

  /** A top-level navigation carries cookies, never a bearer header: the browser credential's. */
  resolveFromCookie(request: Request): Promise<Principal | null> {
    return this.browser.resolveFromCookie(request);
  }
}

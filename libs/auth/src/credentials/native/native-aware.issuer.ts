import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { AuthConfig } from '../../config/auth-config.js';
import type { SvcUser } from '../../entities/user.entity.js';
import type { CredentialIssuer, Impersonation } from '../credential-issuer.js';
import type { JwtCredentialIssuer } from '../jwt/jwt-credential.issuer.js';
import { isNativeRequest } from './native-client.js';
import { NativeCredential } from './native-credential.js';

/**
 * The module's issuer with native clients on (docs/guides/machine-access.md): a native request is
 * issued a jwt credential (a new refresh family, listed among the user's devices) and answered with
 * its tokens in the body and no cookie; every other request gets the browser credential as before.
 */
export class NativeAwareIssuer implements CredentialIssuer {
  readonly issuedAtSignup: boolean;

  constructor(
    private readonly browser: CredentialIssuer,
    private readonly jwt: JwtCredentialIssuer,
    private readonly config: AuthConfig,
  ) {
    this.issuedAtSignup = browser.issuedAtSignup;
  }

  async issue(manager: EntityManager, user: SvcUser, request: Request, impersonation?: Impersonation): Promise<unknown> {
    if (!isNativeRequest(request, this.config)) return this.browser.issue(manager, user, request, impersonation);
    // A native login ends no credential the request may also carry (a browser's cookie): it is another client.
    return new NativeCredential(await this.jwt.issueFamily(manager, user, request, impersonation));
  }

  deliverAsJson(response: Response, credential: unknown, user: SvcUser): object {
    // No Set-Cookie: a native client keeps its tokens itself (RFC 8252 §8.6, no browser storage).
    if (credential instanceof NativeCredential) return credential.body;
    return this.browser.deliverAsJson(response, credential, user);
  }

  deliverAsRedirect(response: Response, credential: unknown, location: string): void {
    // Fails closed: only POST requests are native, and no credential-issuing redirect answers a POST;
    // a refresh token is never put in a URL (RFC 9700 §4.3.2).
    if (credential instanceof NativeCredential) throw new Error('svc: a native credential is never delivered by a redirect');
    this.browser.deliverAsRedirect(response, credential, location);
  }

  clearCookie(response: Response): void {
    this.browser.clearCookie(response);
  }
}

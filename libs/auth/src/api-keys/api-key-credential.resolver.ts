import type { Request, Response } from 'express';
import type { AuthConfig } from '../config/auth-config.js';
import type { CredentialResolver, Principal } from '../credentials/credential-resolver.js';
import { AuthError } from '../errors/auth.error.js';
import type { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { apiKeyOf } from './api-key-token.js';

/**
 * The credential's resolver with API keys beside it (docs/guides/machine-access.md): a request whose
 * `Authorization: Bearer` holds a key (recognised by the prefix) is the key's owner or 401
 * `UNAUTHENTICATED`, whatever cookie it carries; any other request goes to the credential's own resolver.
 * A bearer header is never sent by a browser on its own, so no cross-site check applies to a key.
 */
export class ApiKeyCredentialResolver implements CredentialResolver {
  constructor(
    private readonly credential: CredentialResolver,
    private readonly keys: ApiKeyAuthenticator,
    private readonly config: AuthConfig,
  ) {}

  async resolve(request: Request, response: Response): Promise<Principal> {
    const key = apiKeyOf(request, this.config.apiKeys!.prefix);
    if (key === null) return this.credential.resolve(request, response);
    const principal = await this.keys.authenticate(key);
    if (principal) return principal;
    // RFC 6750 §3: a 401 for a protected resource names the scheme it expects.
    response.setHeader('WWW-Authenticate', 'Bearer');
    throw new AuthError('UNAUTHENTICATED');
  }

  resolveFromCookie(request: Request): Promise<Principal | null> {
    return this.credential.resolveFromCookie(request);
  }
}

import type { Response } from 'express';
import type { EntityManager } from 'typeorm';
import type { CredentialReauthentication } from '../credential-reauthentication.js';
import type { Principal } from '../credential-resolver.js';

/** What a re-authentication renewed: the browser credential's, or a native client's refresh family. */
type Renewed = { native: false; renewed: unknown } | { native: true; renewed: unknown };

/**
 * The session module's re-authentication with native clients on (docs/decisions/0028-fresh-sign-in.md):
 * a principal resolved from a native bearer token has a refresh family, whose `auth_time` moves and
 * which is answered with a new access token, as under the jwt credential; any other, the browser
 * credential's (204 for a session).
 */
export class NativeAwareReauthentication implements CredentialReauthentication<Renewed> {
  constructor(
    private readonly browser: CredentialReauthentication,
    private readonly native: CredentialReauthentication,
  ) {}

  async renew(manager: EntityManager, principal: Principal): Promise<Renewed> {
    if (principal.familyId !== undefined) return { native: true, renewed: await this.native.renew(manager, principal) };
    return { native: false, renewed: await this.browser.renew(manager, principal) };
  }

  deliver(response: Response, renewed: Renewed): object | undefined {
    return renewed.native ? this.native.deliver(response, renewed.renewed) : this.browser.deliver(response, renewed.renewed);
  }
}

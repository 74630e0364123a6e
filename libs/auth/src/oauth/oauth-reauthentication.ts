import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_REAUTHENTICATION } from '../credentials/credential.tokens.js';
import type { CredentialReauthentication } from '../credentials/credential-reauthentication.js';
import type { Principal } from '../credentials/credential-resolver.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { UnitOfWork } from '../persistence/unit-of-work.js';
import type { OAuthAttempt } from './oauth-attempt.js';
import { OAuthAccountStore } from './oauth-account.store.js';
import type { OAuthProviderClient, ProviderIdentity } from './oauth-provider-client.js';

/**
 * The end of a provider re-authentication (docs/guides/account-security.md, "Fresh sign-in"): the
 * identity the provider vouched for must be linked to the signed-in user who started it, and an
 * OpenID Connect provider must say it signed the user in after the request (`auth_time`, OIDC Core
 * §2 and §3.1.2.1, asked for with `max_age=0`); then the presented credential counts as freshly
 * signed in. Anything else: 403 OAUTH_REAUTH_REFUSED, nothing written.
 */
@Injectable()
export class OAuthReauthentication {
  constructor(
    @Inject(CREDENTIAL_REAUTHENTICATION) private readonly credential: CredentialReauthentication,
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: OAuthAccountStore,
  ) {}

  async confirm(provider: OAuthProviderClient, identity: ProviderIdentity, reauth: NonNullable<OAuthAttempt['reauth']>, holder: Principal): Promise<void> {
    if (provider.usesNonce && !signedInSince(identity.profile.auth_time, reauth.requestedAt)) {
      throw new AuthError('OAUTH_REAUTH_REFUSED', { message: 'The provider did not sign you in again' });
    }
    await this.unitOfWork.transaction(async (manager) => {
      const link = await this.accounts.findLink(manager, provider.name, identity.userInfo.providerUserId);
      // An identity linked to another user (or to nobody) proves nothing about this one.
      if (!link || !constantTimeEqual(link.userId, holder.user.id)) throw new AuthError('OAUTH_REAUTH_REFUSED', { message: 'This identity is not linked to your account' });
      // A jwt credential's new auth_time reaches the page with its next refresh: an access token never travels in a URL.
      await this.credential.renew(manager, holder);
    });
  }
}

/** OIDC Core §2: `auth_time` is the time of the End-User's authentication, in seconds; it must not be older than the request. */
function signedInSince(authTime: unknown, requestedAt: number): boolean {
  return typeof authTime === 'number' && Number.isFinite(authTime) && authTime >= requestedAt;
}

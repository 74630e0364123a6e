import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import * as client from 'openid-client';
import { AUTH_CLOCK, SVC_LOGGER } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';
import { safeRedirectPath } from '../config/safe-redirect.js';
import type { CredentialResolver, Principal } from '../credentials/credential-resolver.js';
import type { SvcUser } from '../entities/user.entity.js';
import { constantTimeEqual } from '../crypto/opaque-token.js';
import { AuthError } from '../errors/auth.error.js';
import { HookRunner } from '../hooks/hook-runner.js';
import type { StagedLogin } from '../login/login-completion.js';
import type { OAuthAttempt } from './oauth-attempt.js';
import { OAuthAccounts } from './oauth-accounts.service.js';
import type { OAuthProviderClient, ProviderIdentity } from './oauth-provider-client.js';
import { OAuthStateCookie } from './oauth-state-cookie.js';
import { OAuthStateTokens } from './oauth-state-tokens.js';
import { OAuthUsedStates } from './oauth-used-states.js';
import { OAuthReauthentication } from './oauth-reauthentication.js';
import { checkedUserInfo } from './oauth-user-info.js';
import { ProfileColumns } from './profile-columns.js';

/** A finished callback: a login to deliver, or a link made; where the browser goes; what the provider said. */
export type OAuthCallbackResult =
  | { kind: 'login'; login: StagedLogin; redirect: string; identity: ProviderIdentity }
  | { kind: 'link'; user: SvcUser; linked: boolean; redirect: string; identity: ProviderIdentity }
  | { kind: 'reauth'; redirect: string };

/**
 * The OAuth core, shared by the oauth2 and oidc login methods: the authorization request (state,
 * PKCE, nonce in a signed cookie) and the callback (the cookie checked and cleared, the provider's
 * answer checked, the state recorded as used, the identity handed to `beforeOAuthLogin`, the
 * account resolved and the credential issued in one transaction).
 */
@Injectable()
export class OAuthLogin {
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    private readonly stateTokens: OAuthStateTokens,
    private readonly stateCookie: OAuthStateCookie,
    private readonly usedStates: OAuthUsedStates,
    private readonly hooks: HookRunner,
    private readonly accounts: OAuthAccounts,
    private readonly profileColumns: ProfileColumns,
    @Inject(CREDENTIAL_RESOLVER) private readonly credentials: CredentialResolver,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
    private readonly reauthentication: OAuthReauthentication,
  ) {}

  /**
   * Starts a login, or with `linking` a link flow of that signed-in user, or with `reauthenticating`
   * a re-authentication of that signed-in user (docs/guides/account-security.md): sets the state
   * cookie and returns the provider's authorization URL.
   */
  async start(provider: OAuthProviderClient | undefined, redirectParameter: unknown, response: Response, linking?: Principal, reauthenticating?: Principal): Promise<URL> {
    if (!provider) throw new AuthError('OAUTH_PROVIDER_UNKNOWN');
    const redirect = redirectParameter === undefined ? provider.section.postLoginRedirect : safeRedirectPath(redirectParameter);
    if (redirect === null) throw new AuthError('INVALID_REDIRECT');
    // RFC 9700 §2.1.1: PKCE (S256) against code injection; OIDC Core §3.1.2.1: nonce against id_token replay.
    const codeVerifier = provider.pkce ? client.randomPKCECodeVerifier() : undefined;
    const attempt: OAuthAttempt = {
      provider: provider.name,
      state: client.randomState(),
      codeVerifier,
      nonce: provider.usesNonce ? client.randomNonce() : undefined,
      redirect,
      linkUserId: linking?.user.id,
      ...(reauthenticating ? { reauth: { userId: reauthenticating.user.id, requestedAt: Math.floor(this.clock.now().getTime() / 1000) } } : {}),
    };
    const url = await provider.authorizationUrl({
      state: attempt.state,
      codeChallenge: codeVerifier && (await client.calculatePKCECodeChallenge(codeVerifier)),
      nonce: attempt.nonce,
      reauthenticate: reauthenticating !== undefined,
    });
    this.stateCookie.set(response, await this.stateTokens.mint(provider, attempt), provider.section);
    return url;
  }

  /** Finishes a login or a link at the callback; throws an AuthError whatever goes wrong, with nothing written. */
  async finish(provider: OAuthProviderClient | undefined, request: Request, response: Response): Promise<OAuthCallbackResult> {
    const token = this.stateCookie.read(request);
    this.stateCookie.clear(response);
    if (!provider) throw new AuthError('OAUTH_PROVIDER_UNKNOWN');
    const { attempt, code } = await this.checkedResponse(provider, token, request);
    if (attempt.reauth) return this.finishReauthentication(provider, attempt, code, request);
    const linking = attempt.linkUserId === undefined ? undefined : await this.linkingUser(attempt.linkUserId, request);
    // RFC 9700 §2.1, §4.7.1: a one-time-use state. Clearing the cookie stops its browser only; a
    // copy of cookie and callback URL, replayed on any instance, meets the used state.
    if (!(await this.usedStates.consume(attempt.state, attempt.expiresAt))) throw new AuthError('OAUTH_STATE_INVALID', { message: 'OAuth state already used' });
    const identity = await provider.identify(code, attempt);
    const userInfo = await this.hookedUserInfo(provider, identity, linking, request);
    const redirect = attempt.redirect;
    if (linking) return { kind: 'link', ...(await this.accounts.link(userInfo, linking.user, request)), redirect, identity: { ...identity, userInfo } };
    const columns = await this.profileColumns.of(provider, { ...identity, userInfo });
    const login = await this.accounts.resolveAndIssue(provider.method, userInfo, columns, request);
    return { kind: 'login', login, redirect, identity: { ...identity, userInfo } };
  }

  /** A re-authentication: finished by the browser of the user who started it, with an identity linked to that user. */
  private async finishReauthentication(provider: OAuthProviderClient, attempt: OAuthAttempt & { expiresAt: Date }, code: string, request: Request): Promise<OAuthCallbackResult> {
    const holder = await this.linkingUser(attempt.reauth!.userId, request);
    if (!(await this.usedStates.consume(attempt.state, attempt.expiresAt))) throw new AuthError('OAUTH_STATE_INVALID', { message: 'OAuth state already used' });
    const identity = await provider.identify(code, attempt);
    await this.reauthentication.confirm(provider, identity, attempt.reauth!, holder);
    return { kind: 'reauth', redirect: attempt.redirect };
  }

  /**
   * A link flow is finished by the browser of the user who started it, still signed in as that
   * user: its credential's cookie must name the same user (a session of another user, or none, is
   * refused as a state that does not belong to this request).
   */
  private async linkingUser(userId: string, request: Request): Promise<Principal> {
    const holder = await this.credentials.resolveFromCookie(request);
    if (!holder || !constantTimeEqual(holder.user.id, userId)) throw new AuthError('OAUTH_STATE_INVALID', { message: 'This link was started by another session' });
    return holder;
  }

  /** `beforeOAuthLogin` sees the identity (and, for a link, the user); what it returns is checked again. */
  private async hookedUserInfo(provider: OAuthProviderClient, identity: ProviderIdentity, linking: Principal | undefined, request: Request) {
    const payload = { provider: provider.name, userInfo: identity.userInfo, ...(linking ? { link: { user: linking.body } } : {}) };
    const { userInfo: changed } = await this.hooks.run('beforeOAuthLogin', payload, request);
    const checked = checkedUserInfo(changed, provider.name);
    if ('problem' in checked) {
      // Field names only: nothing the provider sent reaches the log.
      this.logger.error(`before-hook beforeOAuthLogin returned an OAuthUserInfo that ${checked.problem}`);
      throw new AuthError('HOOK_FAILED', { message: 'Internal server error' });
    }
    return checked.userInfo;
  }

  /**
   * The one check of the authorization response (the state cookie, single use, was cleared whatever
   * happens next). Refused (400 OAUTH_STATE_INVALID): no cookie, a bad signature, expired, another
   * provider's, a `state` that differs from the cookie's, or (RFC 9207) an `iss` that is not the
   * provider's. Only then is a provider's `error=` believed (400 OAUTH_PROVIDER_ERROR).
   */
  private async checkedResponse(provider: OAuthProviderClient, token: string | undefined, request: Request): Promise<{ attempt: OAuthAttempt & { expiresAt: Date }; code: string }> {
    const attempt = token ? await this.stateTokens.verify(token, provider) : null;
    const { state, iss, error } = request.query;
    if (!attempt || typeof state !== 'string' || !constantTimeEqual(state, attempt.state)) throw new AuthError('OAUTH_STATE_INVALID');
    if (iss === undefined ? await provider.requiresIssuerInResponse() : iss !== (await provider.expectedIssuer())) {
      throw new AuthError('OAUTH_STATE_INVALID', { message: 'OAuth response comes from another issuer' });
    }
    if (error !== undefined) throw new AuthError('OAUTH_PROVIDER_ERROR');
    // RFC 6749 §4.1.2: a successful response carries exactly one code; anything else is malformed (not a provider outage).
    const code = request.query.code;
    if (typeof code !== 'string' || code.length === 0) throw new AuthError('OAUTH_PROVIDER_ERROR', { message: 'OAuth response carries no code' });
    return { attempt, code };
  }
}

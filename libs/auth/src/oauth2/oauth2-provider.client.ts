import { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { withTimeLimit } from '../async/time-limit.js';
import { SVC_LOGGER } from '../config/auth.constants.js';
import type { OAuth2ProviderConfig, OAuthSectionConfig } from '../config/oauth-config.js';
import type { ProfileColumnsMapper } from '../config/oauth-options.js';
import type { AuthError } from '../errors/auth.error.js';
import type { OAuthAttempt } from '../oauth/oauth-attempt.js';
import { type AuthorizationRequest, authorizationParameters, codeResponseUrl, type OAuthProviderClient, type ProviderIdentity } from '../oauth/oauth-provider-client.js';
import { checkedUserInfo } from '../oauth/oauth-user-info.js';
import { applyTransportRules, clientAuthenticationOf, fetchJsonResource } from '../oauth/openid-client-setup.js';
import { callProvider, providerFailure } from '../oauth/provider-failure.js';

/**
 * A plain OAuth 2.0 provider (RFC 6749 authorization code grant): endpoints configured explicitly,
 * no discovery and no signed identity. Who the user is comes from its userinfo endpoint through the
 * application's `mapProfileToUser`, trusted as the application's own code; svc checks what the mapper returns.
 */
export class OAuth2ProviderClient implements OAuthProviderClient {
  readonly name: string;
  readonly method = 'oauth2';
  readonly pkce: boolean;
  readonly usesNonce = false;
  readonly redirectUri: string;
  readonly mapProfileToColumns?: ProfileColumnsMapper;
  /** What builds authorization URLs (no call to the provider); each exchange gets its own (`configuration`). */
  private readonly config: client.Configuration;
  private readonly logger = new Logger(SVC_LOGGER);

  constructor(
    private readonly provider: OAuth2ProviderConfig,
    readonly section: OAuthSectionConfig<OAuth2ProviderConfig>,
    /** One call to the provider, in ms, read at each call (ProviderTimeLimit: the section's providerTimeoutSeconds). */
    private readonly callMs: () => number,
  ) {
    this.name = provider.name;
    this.pkce = provider.pkce;
    this.redirectUri = provider.redirectUri;
    this.mapProfileToColumns = provider.mapProfileToColumns;
    this.config = this.configuration();
  }

  /** The provider's endpoints as configured, the configured client authentication and the transport rules with the time limit of now. */
  private configuration(): client.Configuration {
    const provider = this.provider;
    const server: client.ServerMetadata = {
      issuer: provider.issuer,
      authorization_endpoint: provider.authorizationUrl,
      token_endpoint: provider.tokenUrl,
      userinfo_endpoint: provider.userinfoUrl,
    };
    const config = new client.Configuration(server, provider.clientId, { client_secret: provider.clientSecret }, clientAuthenticationOf(provider));
    applyTransportRules(config, [provider.authorizationUrl, provider.tokenUrl, provider.userinfoUrl], this.callMs());
    return config;
  }

  async expectedIssuer(): Promise<string> {
    return this.provider.issuer;
  }

  /** A plain OAuth 2.0 provider need not send `iss` (RFC 9207 is optional for it). */
  async requiresIssuerInResponse(): Promise<boolean> {
    return false;
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    const parameters: Record<string, string> = { redirect_uri: this.redirectUri, ...authorizationParameters(request) };
    if (this.provider.scopes.length > 0) parameters.scope = this.provider.scopes.join(' ');
    return this.call('authorization request', async () => client.buildAuthorizationUrl(this.config, parameters));
  }

  async identify(code: string, attempt: OAuthAttempt): Promise<ProviderIdentity> {
    // A Configuration per exchange: it carries the time limit of the moment (ProviderTimeLimit).
    const exchange = this.configuration();
    const tokens = await this.call('token endpoint', () =>
      client.authorizationCodeGrant(exchange, codeResponseUrl(this.redirectUri, code), {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: client.skipStateCheck,
        idTokenExpected: false,
      }),
    );
    const profile = await this.call('userinfo endpoint', () => fetchJsonResource(exchange, tokens.access_token, new URL(this.provider.userinfoUrl)));
    if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) {
      throw this.failure('userinfo endpoint', 'the profile is not a JSON object');
    }
    const userInfo = await this.mapProfile(exchange, profile as Record<string, unknown>, tokens.access_token);
    return { userInfo, profile: profile as Record<string, unknown>, accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? null };
  }

  /**
   * The application's mapper, failing closed: a provider call of its that fails, or an answer that
   * is not an OAuthUserInfo, is 502; no answer within twice the provider timeout is 502; any other
   * error it throws is 500 `INTERNAL_ERROR` (logged by the library's error filter).
   */
  private async mapProfile(exchange: client.Configuration, profile: Record<string, unknown>, accessToken: string) {
    const fetchJson = (url: string) => this.call('a call of mapProfileToUser', () => fetchJsonResource(exchange, accessToken, new URL(url)));
    const mapped = await withTimeLimit(
      () => this.provider.mapProfileToUser(profile, { provider: this.name, accessToken, fetchJson }),
      this.callMs() * 2,
      () => this.failure('mapProfileToUser', 'no answer in time'),
    );
    const checked = checkedUserInfo(mapped, this.name);
    if ('problem' in checked) throw this.failure('mapProfileToUser', `the OAuthUserInfo it returned ${checked.problem}`);
    return checked.userInfo;
  }

  private call<T>(step: string, work: () => Promise<T>): Promise<T> {
    return callProvider({ provider: this.name, step, idTokenExpected: false }, this.logger, work);
  }

  /** 502 OAUTH_PROVIDER_UNAVAILABLE, logged with the provider and the step. */
  private failure(step: string, problem: string): AuthError {
    return providerFailure(new Error(problem), { provider: this.name, step, idTokenExpected: false }, this.logger);
  }
}

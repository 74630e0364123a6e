import { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { SVC_LOGGER } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { OAuthSectionConfig, OidcProviderConfig } from '../config/oauth-config.js';
import { AuthError } from '../errors/auth.error.js';
import type { OAuthAttempt } from '../oauth/oauth-attempt.js';
import { type AuthorizationRequest, authorizationParameters, codeResponseUrl, type OAuthProviderClient, type ProviderIdentity } from '../oauth/oauth-provider-client.js';
import type { OAuthUserInfo, ProfileColumnsMapper } from '../config/oauth-options.js';
import { checkedUserInfo } from '../oauth/oauth-user-info.js';
import { applyTransportRules, clientAuthenticationOf } from '../oauth/openid-client-setup.js';
import { callProvider } from '../oauth/provider-failure.js';
import { OidcDiscovery } from './oidc-discovery.js';
import { OidcSigningKeys } from './oidc-signing-keys.js';

/** OpenID Connect Core §3.1.3.7 (10): an id_token issued further in the future than this is refused. */
const MAX_IAT_SKEW_SECONDS = 300;

/**
 * An OpenID Connect provider. Identity comes only from an id_token that openid-client verified:
 * signature against the provider's JWKS with the configured algorithm only (`none`, HMAC and any
 * other algorithm refused), `iss`, `aud`, `exp`, and the `nonce` of this login; then svc's own
 * checks: `iat` not ahead, `azp` (when present) this client, the user-info rules. When the
 * id_token carries no email, userinfo is asked, and its `sub` must be the id_token's (OIDC Core §5.3.2).
 */
export class OidcProviderClient implements OAuthProviderClient {
  readonly name: string;
  readonly method = 'oidc';
  readonly pkce: boolean;
  readonly usesNonce = true;
  readonly redirectUri: string;
  readonly mapProfileToColumns?: ProfileColumnsMapper;
  private readonly discovery: OidcDiscovery;
  private readonly signingKeys: OidcSigningKeys;
  private readonly logger = new Logger(SVC_LOGGER);
  /** Built once the provider is discovered (its discovery document is kept for the life of the process). */
  private cached?: client.Configuration;

  constructor(
    private readonly provider: OidcProviderConfig,
    readonly section: OAuthSectionConfig<OidcProviderConfig>,
    clock: Clock,
    /** One call to the provider, in ms, read at each call (ProviderTimeLimit: the section's providerTimeoutSeconds). */
    private readonly callMs: () => number,
  ) {
    this.name = provider.name;
    this.pkce = provider.pkce;
    this.redirectUri = provider.redirectUri;
    this.mapProfileToColumns = provider.mapProfileToColumns;
    this.discovery = new OidcDiscovery(provider, this.callMs, clock);
    this.signingKeys = new OidcSigningKeys(clock);
  }

  async expectedIssuer(): Promise<string> {
    return (await this.serverMetadata()).issuer;
  }

  /** RFC 9207 §2.4: a provider that says it sends `iss` must send it. */
  async requiresIssuerInResponse(): Promise<boolean> {
    return (await this.serverMetadata()).authorization_response_iss_parameter_supported === true;
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    const config = this.cached ?? (this.cached = this.configuration(await this.serverMetadata()));
    const parameters = { redirect_uri: this.redirectUri, scope: this.provider.scopes.join(' '), ...authorizationParameters(request) };
    // A discovery document without a usable authorization_endpoint fails here: a provider failure (502).
    return this.call('authorization request', false, async () => client.buildAuthorizationUrl(config, parameters));
  }

  async identify(code: string, attempt: OAuthAttempt): Promise<ProviderIdentity> {
    // The exchange gets a Configuration of its own: openid-client keeps the JWKS it fetched per
    // Configuration, and OidcSigningKeys decides, on the injected clock, when one may fetch again.
    const exchange = this.configuration(await this.serverMetadata());
    const tokens = await this.call('token endpoint', true, () =>
      this.signingKeys.use(exchange, () =>
        client.authorizationCodeGrant(exchange, codeResponseUrl(this.redirectUri, code), {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: client.skipStateCheck,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        }),
      ),
    );
    const claims = tokens.claims()!;
    // Against the system clock, like openid-client's own checks of exp and iat.
    if (claims.iat > Math.floor(Date.now() / 1000) + MAX_IAT_SKEW_SECONDS) {
      this.logger.warn(`OAuth provider ${this.name}, token endpoint: id_token refused: iat is in the future`);
      throw new AuthError('OIDC_ID_TOKEN_INVALID');
    }
    // OIDC Core §3.1.3.7 (5): an azp present must be this client; openid-client checks it only when `aud` has several values.
    if (claims.azp !== undefined && claims.azp !== this.provider.clientId) {
      this.logger.warn(`OAuth provider ${this.name}, token endpoint: id_token refused: azp is another client`);
      throw new AuthError('OIDC_ID_TOKEN_INVALID');
    }
    // OIDC Core §5.3.2: userinfo is trusted only for the subject of the verified id_token.
    const fromIdToken = typeof claims.email === 'string';
    const userinfo = fromIdToken ? {} : await this.call('userinfo endpoint', true, () => client.fetchUserInfo(exchange, tokens.access_token, claims.sub));
    const userInfo = this.checkedIdentity(this.userInfoOf(claims, userinfo), fromIdToken ? 'token endpoint' : 'userinfo endpoint');
    return { userInfo, profile: { ...userinfo, ...claims }, accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? null };
  }

  /**
   * The identity held to the user-info rules (a subject of 1 to 255 characters, a name of at most
   * 1,024, no NUL, no lone surrogate): claims that break them are the provider's fault, refused
   * here as an id_token that cannot be used, before any hook runs (docs/decisions/0019-openid-connect.md).
   */
  private checkedIdentity(identity: OAuthUserInfo, step: string): OAuthUserInfo {
    const checked = checkedUserInfo(identity, this.name);
    if ('problem' in checked) {
      // Field names only: nothing the provider sent reaches the log.
      this.logger.warn(`OAuth provider ${this.name}, ${step}: id_token refused: the identity's ${checked.problem}`);
      throw new AuthError('OIDC_ID_TOKEN_INVALID');
    }
    return checked.userInfo;
  }

  /** The identity: every field from the id_token, or every field from userinfo when the id_token lacks the email. */
  private userInfoOf(claims: client.IDToken, userinfo: Record<string, unknown>): OAuthUserInfo {
    const source: Record<string, unknown> = typeof claims.email === 'string' ? claims : userinfo;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return {
      provider: this.name,
      providerUserId: claims.sub,
      email: text(source.email),
      emailVerified: source.email_verified === true,
      name: text(source.name),
      avatarUrl: text(source.picture),
    };
  }

  private async serverMetadata(): Promise<client.ServerMetadata> {
    return this.call('discovery', false, () => this.discovery.serverMetadata());
  }

  /**
   * A Configuration from the discovered metadata: the configured client authentication, the one
   * id_token algorithm accepted, signatures always checked (openid-client skips them by default for
   * tokens received straight from the token endpoint, OIDC Core §3.1.3.7 (6)). The `iss` of
   * authorization responses is checked once, by the OAuth core (RFC 9207), which hands the token
   * exchange the code alone: openid-client is not told to expect it again.
   */
  private configuration(metadata: client.ServerMetadata): client.Configuration {
    const { authorization_response_iss_parameter_supported: _checkedByTheCore, ...server } = metadata;
    const config = new client.Configuration(
      server,
      this.provider.clientId,
      { client_secret: this.provider.clientSecret, id_token_signed_response_alg: this.provider.idTokenSigningAlg },
      clientAuthenticationOf(this.provider),
    );
    client.enableNonRepudiationChecks(config);
    applyTransportRules(config, [this.provider.issuer], this.callMs());
    return config;
  }

  private call<T>(step: string, idTokenExpected: boolean, work: () => Promise<T>): Promise<T> {
    return callProvider({ provider: this.name, step, idTokenExpected }, this.logger, work);
  }
}

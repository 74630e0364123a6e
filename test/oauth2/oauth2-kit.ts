import type { AuthOptions, OAuth2ProviderOptions, OAuthUserInfo } from '#svc/auth';
import { type HostileOidcProvider, type OidcProviderHarness, reserveLoopbackPort, startHostileOidcProvider, startOidcProvider } from '../support/oauth/index.js';
import { type OAuthApp, type OAuthAppBaseOptions, type Placement, serveOAuthApp } from '../support/oauth/oauth-app.js';
import { TEST_SECRET } from '../support/test-app.js';

export const CLIENT_ID = 'svc-demo-client';
export const CLIENT_SECRET = 'Tq7vR2mXp9LwK4zN8bHc3JfY6sDg0aEu';
export const PROVIDER = 'acme';

/** The accounts of the provider: login name (= provider user id) → claims. */
export const ACCOUNTS = {
  alice: { email: 'alice@x.io', email_verified: true, name: 'Alice', picture: 'https://img.test/alice.png' },
  bob: { email: 'bob@x.io', email_verified: true, name: 'Bob' },
  carol: { email: 'carol@x.io', email_verified: false, name: 'Carol' },
  dave: { email: 'Dave@X.io', email_verified: true, name: 'Dave' },
  erin: { email: 'erin@x.io', email_verified: true, name: 'Erin' },
  frank: { email: 'frank@x.io', email_verified: true, name: 'Frank' },
  grace: { email: 'grace@x.io', email_verified: true, name: 'Grace' },
  heidi: { email: 'heidi@x.io', email_verified: true, name: 'Heidi' },
};

/** What oidc-provider's userinfo answers (OIDC claim names), mapped the way an application would. */
export async function mapStandardProfile(profile: Record<string, unknown>, context: { provider: string }): Promise<OAuthUserInfo> {
  return {
    provider: context.provider,
    providerUserId: String(profile.sub),
    email: typeof profile.email === 'string' ? profile.email : null,
    emailVerified: profile.email_verified === true,
    name: typeof profile.name === 'string' ? profile.name : null,
    avatarUrl: typeof profile.picture === 'string' ? profile.picture : null,
  };
}

export type OAuth2App<P = OidcProviderHarness> = OAuthApp<P>;

export interface OAuth2AppOptions extends OAuthAppBaseOptions {
  provider?: Partial<OAuth2ProviderOptions>;
  oauth2?: Partial<NonNullable<AuthOptions['oauth2']>>;
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
}

/**
 * An application on the oauth2 strategy, listening on 127.0.0.1 at its base URL, and a real
 * oidc-provider on loopback acting as a plain OAuth 2.0 server (its endpoints given explicitly).
 */
export async function createOAuth2App(options: OAuth2AppOptions): Promise<OAuth2App> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    plainOAuth2: true,
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${url}/auth/oauth2/${PROVIDER}/callback`, `${url}/auth/oauth2/other/callback`],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'client_secret_basic',
      },
    ],
    accounts: ACCOUNTS,
  });
  return serveApp(options, port, provider, { ...provider.urls });
}

/** The same application in front of the hostile provider, in plain OAuth 2.0 mode: every answer scripted. */
export async function createHostileOAuth2App(options: OAuth2AppOptions): Promise<OAuth2App<HostileOidcProvider>> {
  const port = await reserveLoopbackPort();
  const provider = await startHostileOidcProvider({ mode: 'oauth2', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  return serveApp(options, port, provider, { ...provider.urls });
}

/**
 * Another instance of `first` behind the same public base URL (so the same redirect URI), on its
 * own port, sharing its database, provider and secrets: what a second process behind a load
 * balancer is. Closing it leaves the database and the provider to `first`.
 */
export async function createSecondInstance(first: OAuth2App<HostileOidcProvider>, options: OAuth2AppOptions): Promise<OAuth2App<HostileOidcProvider>> {
  const port = await reserveLoopbackPort();
  const shared = { options: first.dataSource.options, drop: async () => undefined };
  const app = await serveApp(options, port, first.provider, { ...first.provider.urls }, { baseUrl: first.url, database: shared });
  return { ...app, close: () => app.app.close() };
}

async function serveApp<P extends { close(): Promise<void> }>(
  options: OAuth2AppOptions,
  port: number,
  provider: P,
  urls: { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string },
  placement: Placement = {},
): Promise<OAuth2App<P>> {
  const entry = (name: string): OAuth2ProviderOptions => ({
    name,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorizationUrl: urls.authorization_endpoint,
    tokenUrl: urls.token_endpoint,
    userinfoUrl: urls.userinfo_endpoint,
    scopes: ['openid', 'email', 'profile'],
    tokenEndpointAuthMethod: options.tokenEndpointAuthMethod,
    mapProfileToUser: mapStandardProfile,
    ...options.provider,
  });
  const section = { secretKey: TEST_SECRET, strategy: options.credential, providers: [entry(PROVIDER), entry('other')], ...options.oauth2 };
  return serveOAuthApp(options, { method: 'oauth2', providerName: PROVIDER, port, provider, section, placement });
}

export { credentialCookieOf, errorOf, setCookies, writtenRows } from '../support/oauth-app-responses.js';

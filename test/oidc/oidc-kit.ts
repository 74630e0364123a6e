import type { AuthOptions, OidcProviderOptions } from '#svc/auth';
import {
  type HostileOidcProvider,
  type HostileProviderOptions,
  type OidcProviderHarness,
  type OidcProviderOptions as HarnessOptions,
  reserveLoopbackPort,
  startHostileOidcProvider,
  startOidcProvider,
} from '../support/oauth/index.js';
import { type OAuthApp, type OAuthAppBaseOptions, serveOAuthApp } from '../support/oauth/oauth-app.js';
import { TEST_SECRET } from '../support/test-app.js';

export const CLIENT_ID = 'svc-oidc-client';
export const CLIENT_SECRET = 'Wm4kP8sQ2nX6vB9cR3tY7hJ1gF5dLa0e';
export const PROVIDER = 'op';

export const ACCOUNTS = {
  alice: { email: 'alice@x.io', email_verified: true, name: 'Alice', picture: 'https://img.test/alice.png' },
  bob: { email: 'bob@x.io', email_verified: true, name: 'Bob', emailOnlyInUserinfo: true },
  carol: { email: 'carol@x.io', email_verified: false, name: 'Carol' },
  dave: { email: 'dave@x.io', email_verified: true, name: 'Dave' },
};

export type OidcApp<P> = OAuthApp<P>;

export interface OidcAppOptions extends OAuthAppBaseOptions {
  provider?: Partial<OidcProviderOptions>;
  oidc?: Partial<NonNullable<AuthOptions['oidc']>>;
}

/** An application on the oidc strategy in front of a real oidc-provider (discovery, login and consent forms). */
export async function createOidcApp(options: OidcAppOptions & { harness?: Partial<HarnessOptions> }): Promise<OidcApp<OidcProviderHarness>> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/${PROVIDER}/callback`] }],
    accounts: ACCOUNTS,
    ...options.harness,
  });
  return serveApp(options, port, provider, provider.issuer);
}

/** The same application in front of the hostile provider, whose every answer a test scripts. */
export async function createHostileOidcApp(options: OidcAppOptions & { hostile?: Partial<HostileProviderOptions> }): Promise<OidcApp<HostileOidcProvider>> {
  const port = await reserveLoopbackPort();
  const provider = await startHostileOidcProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options.hostile });
  return serveApp(options, port, provider, provider.issuer);
}

async function serveApp<P extends { close(): Promise<void> }>(options: OidcAppOptions, port: number, provider: P, issuer: string): Promise<OidcApp<P>> {
  const section = {
    secretKey: TEST_SECRET,
    strategy: options.credential,
    providers: [{ name: PROVIDER, issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options.provider }],
    ...options.oidc,
  };
  return serveOAuthApp(options, { method: 'oidc', providerName: PROVIDER, port, provider, section });
}

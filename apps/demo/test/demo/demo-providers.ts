import { type OidcProviderHarness, type ProviderAccount, reserveLoopbackPort, startOidcProvider } from '../../../../test/support/oauth/index.js';

const CLIENT_SECRET = 'Lq4Wn8Zc2Vr6Tb9Xk3Hm7Pd1Js5Fg0Ya';

/** The demo's port, reserved before it listens, and the two providers that know its callback URLs. */
export interface DemoProviders {
  port: number;
  baseUrl: string;
  /** OIDC_PROVIDERS names it "corp". */
  oidc: OidcProviderHarness;
  /** OAUTH2_PROVIDERS names it "acme": an oidc-provider acting as a plain OAuth 2.0 server. */
  oauth2: OidcProviderHarness;
  /** OIDC_PROVIDERS and OAUTH2_PROVIDERS for the demo. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * An oidc provider "corp" and a plain OAuth 2.0 provider "acme" on loopback, both with `accounts`,
 * for a demo that will listen on `port` (reserved here), its base URL on `host` (`localhost` for passkeys).
 */
export async function startDemoProviders(accounts: Record<string, ProviderAccount>, host: '127.0.0.1' | 'localhost' = '127.0.0.1'): Promise<DemoProviders> {
  const port = await reserveLoopbackPort();
  const baseUrl = `http://${host}:${port}`;
  const client = (method: string, name: string) => ({ client_id: 'demo', client_secret: CLIENT_SECRET, redirect_uris: [`${baseUrl}/auth/${method}/${name}/callback`] });
  const [oidc, oauth2] = await Promise.all([
    startOidcProvider({ clients: [client('oidc', 'corp')], accounts }),
    startOidcProvider({ plainOAuth2: true, clients: [client('oauth2', 'acme')], accounts }),
  ]);
  const env = {
    OIDC_PROVIDERS: JSON.stringify([{ name: 'corp', issuer: oidc.issuer, client_id: 'demo', client_secret: CLIENT_SECRET, scopes: ['openid', 'email', 'profile'] }]),
    OAUTH2_PROVIDERS: JSON.stringify([
      {
        name: 'acme',
        client_id: 'demo',
        client_secret: CLIENT_SECRET,
        authorization_url: oauth2.urls.authorization_endpoint,
        token_url: oauth2.urls.token_endpoint,
        userinfo_url: oauth2.urls.userinfo_endpoint,
        scopes: ['openid', 'email', 'profile'],
        profile: { id: 'sub', email: 'email', name: 'name', email_verified: 'email_verified' },
      },
    ]),
  };
  return {
    port,
    baseUrl,
    oidc,
    oauth2,
    env,
    close: async () => {
      await Promise.all([oidc.close(), oauth2.close()]);
    },
  };
}

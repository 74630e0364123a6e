import { randomBytes } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import { clientAuthenticationCheck, type ProviderTokenRequest } from './client-authentication-check.js';
import { LoopbackServer } from './loopback-server.js';
import {
  type OidcProviderOptions,
  type ProviderAccount,
  type ProviderClientOptions,
  type ProviderUrls,
  providerUrls,
} from './oidc-provider-options.js';
import { protocolAdjustments } from './plain-oauth2-middleware.js';
import { providerConfiguration, type ProviderState } from './provider-configuration.js';
import { ProviderStore } from './provider-store.js';
import { withoutExpectedProviderWarnings } from './quiet-provider-warnings.js';
import { generateSigningKeySet, type SigningKey } from './signing-keys.js';

/**
 * A real oidc-provider 9 on 127.0.0.1, with its devInteractions login and consent forms.
 * Changing keys or clients builds a new Provider instance (oidc-provider's keys and clients are
 * fixed at construction) served on the same port with the same store and cookie keys: sessions,
 * grants and issued codes survive, as they would across a restart of a provider with a database.
 */
export class OidcProviderHarness {
  readonly urls: ProviderUrls;
  /** Errors behind the provider's 500 answers (its `server_error` event), newest last. */
  readonly serverErrors: Error[] = [];
  /** Every token request answered, newest last: how the client authenticated, whether PKCE was used. */
  readonly tokenRequests: ProviderTokenRequest[] = [];
  private readonly clients: Map<string, ProviderClientOptions>;
  private readonly accounts: Map<string, ProviderAccount>;
  private readonly store = new ProviderStore();
  private readonly cookieKeys = [randomBytes(32).toString('base64url')];
  private keys: SigningKey[] = [];

  private constructor(
    private readonly server: LoopbackServer,
    private readonly options: OidcProviderOptions,
  ) {
    this.urls = providerUrls(server.origin);
    this.clients = new Map(options.clients.map((client) => [client.client_id, client]));
    this.accounts = new Map(Object.entries(options.accounts ?? {}));
  }

  /** @internal use startOidcProvider */
  static async start(options: OidcProviderOptions): Promise<OidcProviderHarness> {
    const server = await LoopbackServer.listen((_request, response) => {
      response.writeHead(503).end();
    }, options.port);
    const harness = new OidcProviderHarness(server, options);
    harness.keys = await generateSigningKeySet();
    await harness.serveNewGeneration();
    return harness;
  }

  /** `http://127.0.0.1:<port>`: the `iss` of its id_tokens and the issuer for discovery. */
  get issuer(): string {
    return this.urls.issuer;
  }

  get port(): number {
    return this.server.port;
  }

  get running(): boolean {
    return this.server.running;
  }

  /** The `kid` of the RSA key that signs RS256 and PS256 id_tokens now. */
  get signingKeyId(): string {
    return this.keys.find((key) => key.type === 'RSA')!.kid;
  }

  /** The public JWKS the provider publishes at `jwks_uri`. */
  jwks(): JSONWebKeySet {
    return { keys: this.keys.map((key) => key.publicJwk) };
  }

  /**
   * Signs with new keys (new `kid`s) from now on and publishes them. With `keepPrevious` the old
   * public keys stay in the JWKS after the new ones (tokens already issued still verify);
   * otherwise they are withdrawn at once.
   */
  async rotateKeys(options: { keepPrevious?: boolean } = {}): Promise<void> {
    const fresh = await generateSigningKeySet();
    this.keys = options.keepPrevious ? [...fresh, ...this.keys] : fresh;
    await this.serveNewGeneration();
  }

  /** Adds or replaces an account; takes effect at the next id_token or userinfo answer. */
  setAccount(login: string, account: ProviderAccount): void {
    this.accounts.set(login, account);
  }

  /** Registers a client, or replaces the one with its client_id (say, a redirect_uri known late). */
  async setClient(client: ProviderClientOptions): Promise<void> {
    this.clients.set(client.client_id, client);
    await this.serveNewGeneration();
  }

  /** Stops answering: connections are refused until `start()`. */
  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Listens again on the same port, with the same keys, clients, sessions and codes. */
  start(): Promise<void> {
    return this.server.start();
  }

  close(): Promise<void> {
    return this.server.stop();
  }

  private async serveNewGeneration(): Promise<void> {
    const state: ProviderState = {
      clients: this.clients,
      accounts: this.accounts,
      keys: this.keys,
      cookieKeys: this.cookieKeys,
      store: this.store,
      pkce: this.options.pkce ?? 'required',
    };
    const provider = await withoutExpectedProviderWarnings(async () => {
      const { Provider } = await import('oidc-provider');
      return new Provider(this.issuer, providerConfiguration(state));
    });
    const plain = this.options.plainOAuth2 ?? false;
    const sendIss = this.options.authorizationResponseIss ?? !plain;
    provider.use(clientAuthenticationCheck(this.clients, this.tokenRequests));
    if (plain || !sendIss) {
      provider.use(protocolAdjustments(this.issuer, { addOpenidScope: plain, dropIdToken: plain, dropAuthorizationResponseIss: !sendIss }));
    }
    provider.on('server_error', (_ctx: unknown, error: Error) => {
      this.serverErrors.push(error);
    });
    this.server.setHandler(provider.callback());
  }
}

/**
 * Starts a real oidc-provider 9 on 127.0.0.1 (port 0 by default).
 *
 * For a provider that is down when the application starts: start it (the port is then known for
 * the application's configuration), `stop()` it, start the application, then `start()` it again.
 */
export function startOidcProvider(options: OidcProviderOptions): Promise<OidcProviderHarness> {
  return OidcProviderHarness.start(options);
}

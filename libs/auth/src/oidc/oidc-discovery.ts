import * as client from 'openid-client';
import type { Clock } from '../config/clock.js';
import type { OidcProviderConfig } from '../config/oauth-config.js';
import { clientAuthenticationOf } from '../oauth/openid-client-setup.js';
import { sizeLimitedFetch } from '../oauth/size-limited-fetch.js';

/** After a failed discovery, the next attempt waits this long: a login storm does not become a discovery storm. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * The provider's discovery document (OpenID Connect Discovery 1.0), fetched through openid-client
 * on first use rather than at startup, so that an application starts while its provider is down.
 * A document whose `issuer` is not exactly the configured one is refused by openid-client (OIDC
 * Discovery §4.3, mix-up defence). A document over 1 MiB is refused unread. A success is kept for the life of the process; a failure is not:
 * it is tried again on a later login, at most once per RETRY_AFTER_FAILURE_MS.
 */
export class OidcDiscovery {
  private metadata?: client.ServerMetadata;
  private pending?: Promise<client.ServerMetadata>;
  private failedAt = Number.NEGATIVE_INFINITY;
  private lastFailure?: unknown;

  constructor(
    private readonly provider: OidcProviderConfig,
    private readonly timeoutMs: () => number,
    private readonly clock: Clock,
  ) {}

  async serverMetadata(): Promise<client.ServerMetadata> {
    if (this.metadata) return this.metadata;
    if (this.clock.now().getTime() - this.failedAt < RETRY_AFTER_FAILURE_MS) throw this.lastFailure;
    this.pending ??= this.discover().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async discover(): Promise<client.ServerMetadata> {
    const issuer = new URL(this.provider.issuer);
    const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
    try {
      const config = await client.discovery(issuer, this.provider.clientId, this.provider.clientSecret, clientAuthenticationOf(this.provider), {
        execute,
        // openid-client counts seconds.
        timeout: this.timeoutMs() / 1000,
        [client.customFetch]: sizeLimitedFetch,
      });
      this.metadata = { ...config.serverMetadata() };
      return this.metadata;
    } catch (error) {
      this.failedAt = this.clock.now().getTime();
      this.lastFailure = error;
      throw error;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { OAuthProviderRegistry } from '../oauth/oauth-provider-client.js';
import { providerCallMs, ProviderTimeLimit } from '../oauth/provider-time-limit.js';
import { OidcProviderClient } from './oidc-provider.client.js';

/** The configured OpenID Connect providers, by name (each discovered on first use). */
@Injectable()
export class OidcProviders implements OAuthProviderRegistry {
  private readonly byName: ReadonlyMap<string, OidcProviderClient>;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig, @Inject(AUTH_CLOCK) clock: Clock, timeLimit: ProviderTimeLimit) {
    const section = config.oidc!;
    // Checked now, so that a limit the library refuses stops the application at startup; then read at each call.
    providerCallMs(timeLimit, section);
    const callMs = () => providerCallMs(timeLimit, section);
    this.byName = new Map(section.providers.map((provider) => [provider.name, new OidcProviderClient(provider, section, clock, callMs)]));
  }

  get(name: string): OidcProviderClient | undefined {
    return this.byName.get(name);
  }
}

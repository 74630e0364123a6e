import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { OAuthProviderRegistry } from '../oauth/oauth-provider-client.js';
import { providerCallMs, ProviderTimeLimit } from '../oauth/provider-time-limit.js';
import { OAuth2ProviderClient } from './oauth2-provider.client.js';

/** The configured oauth2 providers, by name, built once at startup. */
@Injectable()
export class OAuth2Providers implements OAuthProviderRegistry {
  private readonly byName: ReadonlyMap<string, OAuth2ProviderClient>;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig, timeLimit: ProviderTimeLimit) {
    const section = config.oauth2!;
    // Checked now, so that a limit the library refuses stops the application at startup; then read at each call.
    providerCallMs(timeLimit, section);
    const callMs = () => providerCallMs(timeLimit, section);
    this.byName = new Map(section.providers.map((provider) => [provider.name, new OAuth2ProviderClient(provider, section, callMs)]));
  }

  get(name: string): OAuth2ProviderClient | undefined {
    return this.byName.get(name);
  }
}

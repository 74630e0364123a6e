import { Injectable } from '@nestjs/common';
import type { OAuthProviderConfigBase, OAuthSectionConfig } from '../config/oauth-config.js';

/**
 * How long one call to a provider may take (discovery, token, userinfo, JWKS, a mapper's resource
 * call; a mapper itself gets twice that): the section's validated `providerTimeoutSeconds`. It is a
 * Nest provider so that a test of a provider that never answers can wait less (docs/guides/testing.md); nothing in the library overrides it. Read at each call.
 */
@Injectable()
export class ProviderTimeLimit {
  /** Milliseconds of one call to a provider of `section`. */
  callMs(section: OAuthSectionConfig<OAuthProviderConfigBase>): number {
    return section.providerTimeoutSeconds * 1000;
  }
}

/**
 * The limit the clients use. Fails closed: an override may only shorten the configured seconds; a
 * limit that is not a positive number, or is longer, stops the application at startup (openid-client
 * reads a timeout of 0 as none).
 */
export function providerCallMs(limit: ProviderTimeLimit, section: OAuthSectionConfig<OAuthProviderConfigBase>): number {
  const ms = limit.callMs(section);
  const ceiling = section.providerTimeoutSeconds * 1000;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > ceiling) {
    throw new Error(`ProviderTimeLimit: ${String(ms)} ms is not a time limit between 0 and providerTimeoutSeconds (${ceiling} ms)`);
  }
  return ms;
}

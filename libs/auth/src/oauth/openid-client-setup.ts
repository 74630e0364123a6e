import * as client from 'openid-client';
import type { OAuthProviderConfigBase } from '../config/oauth-config.js';
import { isLoopbackHost } from '../config/option-rules.js';
import { isResponseTooLarge, sizeLimitedFetch } from './size-limited-fetch.js';

/** Client authentication: client_secret_basic (RFC 6749 §2.3.1) unless the entry says client_secret_post. */
export function clientAuthenticationOf(provider: OAuthProviderConfigBase): client.ClientAuth {
  return provider.tokenEndpointAuthMethod === 'client_secret_post' ? client.ClientSecretPost(provider.clientSecret) : client.ClientSecretBasic(provider.clientSecret);
}

/**
 * The transport rules of every call to a provider: the section's timeout, answers of at most
 * 1 MiB (`sizeLimitedFetch`), and plain http only when a configured provider URL is http (allowed
 * by the options only on a loopback host); otherwise openid-client refuses any http endpoint, a
 * discovered one included.
 */
export function applyTransportRules(config: client.Configuration, providerUrls: readonly string[], timeoutMs: number): void {
  // openid-client counts its timeout in seconds (a fraction is fine: it waits timeout * 1000 ms).
  config.timeout = timeoutMs / 1000;
  config[client.customFetch] = sizeLimitedFetch;
  if (providerUrls.some((url) => new URL(url).protocol === 'http:')) client.allowInsecureRequests(config);
}

/** A resource URL a mapper may fetch: https, or http on a loopback host (a provider failure otherwise, logged). */
function assertFetchableUrl(url: URL): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  throw new Error(`${url.origin} is not https`);
}

/**
 * GETs a JSON resource with the provider's access token (RFC 6750 §2.1) and the configuration's
 * transport rules; a status other than 2xx, a body over 1 MiB or one that is not JSON is a provider failure.
 */
export async function fetchJsonResource(config: client.Configuration, accessToken: string, url: URL): Promise<unknown> {
  assertFetchableUrl(url);
  const response = await client.fetchProtectedResource(config, accessToken, url, 'GET', undefined, new Headers({ accept: 'application/json' }));
  if (!response.ok) throw new Error(`${url.pathname} answered HTTP ${response.status}`);
  try {
    return await response.json();
  } catch (error) {
    if (isResponseTooLarge(error)) throw error;
    throw new Error(`${url.pathname} did not answer JSON`);
  }
}

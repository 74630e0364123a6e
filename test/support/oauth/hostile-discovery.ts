import type { ProviderUrls } from './oidc-provider-options.js';
import { withOverrides } from './overrides.js';

/** OpenID Connect Discovery §3 metadata for the hostile provider, with the script's overrides. */
export function hostileDiscoveryDocument(urls: ProviderUrls, idTokenAlg: string, mode: 'oidc' | 'oauth2', overrides?: Record<string, unknown>): Record<string, unknown> {
  const { discovery: _self, ...endpoints } = urls;
  return withOverrides(
    {
      ...endpoints,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [idTokenAlg],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_response_iss_parameter_supported: mode === 'oidc',
    },
    overrides,
  );
}

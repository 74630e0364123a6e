import type { AuthConfig } from '../config/auth-config.js';
import type { OAuthMethod } from '../config/login-methods.js';

/** The provider login methods the module serves, in their fixed order. */
export function oauthMethodsOf(config: AuthConfig): OAuthMethod[] {
  return (['oauth2', 'oidc'] as const).filter((method) => config.loginMethods.includes(method));
}

/** The names of one provider method's configured providers. */
export function providerNamesOf(config: AuthConfig, method: OAuthMethod): string[] {
  return config[method]?.providers.map((provider) => provider.name) ?? [];
}

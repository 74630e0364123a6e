import type { Provider, Type } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { CredentialResolver } from '../credentials/credential-resolver.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { ApiKeyCredentialResolver } from './api-key-credential.resolver.js';
import { ApiKeyRefusalGuard } from './api-key-refusal.guard.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeys } from './api-keys.service.js';
import { ApiKeyStore } from './api-key.store.js';

export { ApiKeyAuthenticator } from './api-key-authenticator.js';
export { ApiKeyRefusalGuard } from './api-key-refusal.guard.js';

/** The `apiKeys` section's routes and services (docs/guides/machine-access.md); mounted only with it. */
export const apiKeyParts: { controllers: Type[]; providers: Provider[] } = {
  controllers: [ApiKeysController],
  providers: [ApiKeyStore, ApiKeyAuthenticator, ApiKeys, ApiKeyRefusalGuard],
};

/** The credential's own resolver (the browser's, or the native-aware one), which the API key resolver wraps. */
const CREDENTIAL_RESOLVER_WITHOUT_KEYS = Symbol('svc:credential-resolver-without-keys');

/**
 * API keys beside the credential (docs/guides/machine-access.md): the resolver the module would register is
 * kept under an inner token, and every guard that resolves a principal gets one that tries a key first.
 */
export function withApiKeyResolver(credentialTokens: Provider[]): Provider[] {
  return [
    ...credentialTokens.map((provider) =>
      typeof provider === 'object' && 'provide' in provider && provider.provide === CREDENTIAL_RESOLVER ? { ...provider, provide: CREDENTIAL_RESOLVER_WITHOUT_KEYS } : provider,
    ),
    {
      provide: CREDENTIAL_RESOLVER,
      useFactory: (resolver: CredentialResolver, keys: ApiKeyAuthenticator, config: AuthConfig) => new ApiKeyCredentialResolver(resolver, keys, config),
      inject: [CREDENTIAL_RESOLVER_WITHOUT_KEYS, ApiKeyAuthenticator, AUTH_CONFIG],
    },
  ];
}

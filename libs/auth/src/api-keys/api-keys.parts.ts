import type { Provider, Type } from '@nestjs/common';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { ApiKeyRefusalGuard } from './api-key-refusal.guard.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeys } from './api-keys.service.js';
import { ApiKeyStore } from './api-key.store.js';

export { ApiKeyAuthenticator } from './api-key-authenticator.js';
export { ApiKeyCredentialResolver } from './api-key-credential.resolver.js';
export { ApiKeyRefusalGuard } from './api-key-refusal.guard.js';

/** The `apiKeys` section's routes and services (docs/guides/machine-access.md); mounted only with it. */
export const apiKeyParts: { controllers: Type[]; providers: Provider[] } = {
  controllers: [ApiKeysController],
  providers: [ApiKeyStore, ApiKeyAuthenticator, ApiKeys, ApiKeyRefusalGuard],
};

import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { decodeInvalidation } from './invalidation-message.js';
import type { InvalidationTransport } from './invalidation-transport.js';
import { INVALIDATION_TRANSPORT, PRINCIPAL_CACHE } from './principal-cache.tokens.js';
import type { PrincipalCache } from './principal-cache.js';

/**
 * Connects the cache to its transport for the application's lifetime: messages from every instance
 * invalidate, a lost channel suspends the cache, a channel back resumes it empty.
 */
@Injectable()
export class PrincipalCacheListener implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache<unknown>,
    @Inject(INVALIDATION_TRANSPORT) private readonly transport: InvalidationTransport | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.transport?.start({
      message: (message) => {
        const invalidation = decodeInvalidation(message);
        if (invalidation !== null) this.cache.invalidate(invalidation);
      },
      down: () => this.cache.suspend(),
      up: () => this.cache.resume(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.cache.suspend();
    await this.transport?.stop();
  }
}

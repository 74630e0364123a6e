import type { INestApplication } from '@nestjs/common';
import type { InvalidationTransport } from '../principal-cache/invalidation-transport.js';
import type { PrincipalCache } from '../principal-cache/principal-cache.js';
import { INVALIDATION_TRANSPORT, PRINCIPAL_CACHE } from '../principal-cache/principal-cache.tokens.js';

/** What `observePrincipalCache` tells as an instance's principal cache works. */
export interface PrincipalCacheObserver {
  /** After each invalidation this instance's cache applies: its own, or one another instance published. */
  applied?(): void;
  /**
   * After each invalidation this instance publishes to the others. On PostgreSQL one message
   * repeated within a transaction is told once, as NOTIFY delivers it once.
   */
  published?(): void;
}

/**
 * Watches an instance's principal cache (docs/guides/principal-cache.md), for tests of several
 * instances that wait until one has applied what another published, on the event rather than
 * polling. Throws when the application has no principal cache.
 */
export function observePrincipalCache(app: INestApplication, observer: PrincipalCacheObserver): void {
  let cache: PrincipalCache<unknown>;
  let transport: InvalidationTransport;
  try {
    cache = app.get<PrincipalCache<unknown>>(PRINCIPAL_CACHE);
    transport = app.get<InvalidationTransport>(INVALIDATION_TRANSPORT);
  } catch (cause) {
    throw new TypeError('observePrincipalCache: this application has no principal cache (the principalCache option)', { cause });
  }
  const invalidate = cache.invalidate.bind(cache);
  cache.invalidate = (invalidation) => {
    invalidate(invalidation);
    observer.applied?.();
  };
  const publish = transport.publish.bind(transport);
  const sentIn = new WeakMap<object, Set<string>>();
  transport.publish = async (manager, message) => {
    await publish(manager, message);
    if (transport.transactional) {
      const sent = sentIn.get(manager) ?? new Set<string>();
      sentIn.set(manager, sent);
      if (sent.has(message)) return;
      sent.add(message);
    }
    observer.published?.();
  };
}

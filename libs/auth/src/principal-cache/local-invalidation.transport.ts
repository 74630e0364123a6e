import type { InvalidationListener, InvalidationTransport } from './invalidation-transport.js';

/**
 * `invalidation: 'local'`: this process only, for an application that runs one instance alone on
 * its database (SQLite's usual case). Revocations are applied where they commit; nothing travels.
 */
export class LocalInvalidationTransport implements InvalidationTransport {
  readonly transactional = false;

  async start(listener: InvalidationListener): Promise<void> {
    listener.up();
  }

  async publish(): Promise<void> {}

  async stop(): Promise<void> {}
}

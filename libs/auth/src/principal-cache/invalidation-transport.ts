import type { EntityManager } from 'typeorm';

/** What the transport tells the cache: a message from any instance, its channel lost, its channel listening (again). */
export interface InvalidationListener {
  message(message: string): void;
  down(): void;
  up(): void;
}

/** How invalidations travel between instances (docs/guides/principal-cache.md). */
export interface InvalidationTransport {
  /**
   * true: `publish` runs inside the revocation's transaction and is delivered at its commit, and
   * dropped with its rollback (PostgreSQL NOTIFY); false: it is called once the revocation committed.
   */
  readonly transactional: boolean;
  /** Resolves after the first attempt to listen; until one succeeds, the listener stays down. */
  start(listener: InvalidationListener): Promise<void>;
  publish(manager: EntityManager, message: string): Promise<void>;
  stop(): Promise<void>;
}

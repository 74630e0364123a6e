import type { DataSource, EntityManager } from 'typeorm';
import type { InvalidationListener, InvalidationTransport } from './invalidation-transport.js';

/** The part of a node-postgres client this transport uses. */
interface ListeningClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (notification: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/** The node-postgres pool TypeORM's PostgreSQL driver holds: its client class and connection options. */
interface DriverPool {
  Client: new (options: object) => ListeningClient;
  options: object;
}

/** How `pg_stat_activity` names the listening connection (to find it when operating the database). */
export const LISTENER_APPLICATION_NAME = 'svc-principal-cache';
const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5000;

/**
 * PostgreSQL `LISTEN/NOTIFY`: a revocation's `pg_notify` is part of its transaction, delivered to
 * every listener at its commit (never before it, never after a rollback). One connection of its own
 * listens, outside the pool, with the data source's connection options; lost, it is retried with
 * backoff (50 ms doubling to 5 s) while the cache stays down.
 */
export class PostgresInvalidationTransport implements InvalidationTransport {
  readonly transactional = true;
  private listener?: InvalidationListener;
  /** The connection in use (connecting or listening); undefined while waiting to retry. */
  private current?: ListeningClient;
  private retryMs = FIRST_RETRY_MS;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly channel: string,
  ) {}

  async start(listener: InvalidationListener): Promise<void> {
    this.listener = listener;
    await this.listen();
  }

  async publish(manager: EntityManager, message: string): Promise<void> {
    await manager.query('SELECT pg_notify($1, $2)', [this.channel, message]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.current;
    this.current = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const pool = (this.dataSource.driver as unknown as { master: DriverPool }).master;
    // TCP keepalive: a connection that dies silently (no FIN, no RST) is noticed, and the cache suspended.
    const client = new pool.Client({ ...pool.options, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
    this.current = client;
    client.on('notification', (notification) => {
      if (notification.channel === this.channel && notification.payload !== undefined) this.listener!.message(notification.payload);
    });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
      // The channel is checked at startup to be a plain lowercase identifier: nothing to quote.
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      this.lose(client);
      return;
    }
    if (this.current !== client) return;
    this.retryMs = FIRST_RETRY_MS;
    this.listener!.up();
  }

  /** Called once per connection, however it failed (an error, its end, a failed LISTEN). */
  private lose(client: ListeningClient): void {
    if (this.current !== client) return;
    this.current = undefined;
    this.listener!.down();
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.listen(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }
}

import { AuthConfigError } from '../config/auth-config.error.js';
import type { RedisCommands, RedisPubSubClient } from '../config/auth-options.js';

/** An ioredis client svc opened from a `{ url }` option: svc's to close, at shutdown. */
export interface OwnedRedis extends RedisCommands, RedisPubSubClient {
  readonly status: string;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Opens the client of `field: { url }`, the limiter's or the principal cache's. ioredis is an
 * optional peer of svc, loaded only here (the one folder that imports it). A command waits for one
 * reconnection at most while Redis is unreachable, then fails (the limiter then applies
 * `rateLimit.onBackendError`).
 */
export async function openRedis(field: string, url: string): Promise<OwnedRedis> {
  let Redis: (typeof import('ioredis'))['Redis'];
  try {
    ({ Redis } = await import('ioredis'));
  } catch (error) {
    throw new AuthConfigError(field, `is { url }, which needs the ioredis package (npm install ioredis): ${(error as Error).message}`);
  }
  const client = new Redis(url, { maxRetriesPerRequest: 1 }) as unknown as OwnedRedis;
  // ioredis reports connection errors here and reconnects on its own; commands meanwhile fail as above.
  client.on('error', () => undefined);
  return client;
}

/** QUIT once the pending replies are in when connected; else stop connecting at once. */
export async function closeRedis(client: OwnedRedis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}

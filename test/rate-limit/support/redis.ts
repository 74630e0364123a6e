import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export const REDIS_URL = 'redis://127.0.0.1:6379';

let redisReachable: Promise<boolean> | undefined;

/** Whether Redis answers; when it does not, REQUIRE_REDIS=1 makes that a failure. */
export function canUseRedis(): Promise<boolean> {
  redisReachable ??= (async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 2000, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch {
      if (process.env.REQUIRE_REDIS === '1') throw new Error('Redis is required (REQUIRE_REDIS=1) but unreachable on 127.0.0.1:6379');
      console.warn('\n!!! Redis unreachable on 127.0.0.1:6379: the Redis variants of this suite are SKIPPED !!!\n');
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return redisReachable;
}

export function newRedisClient(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** A key prefix no other test run shares. */
export function randomRedisPrefix(): string {
  return `svc-test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
}

/** The keys matching `pattern`, sorted, found by SCAN (which, unlike KEYS, never blocks a shared server for long). */
export async function scanKeys(client: Redis, pattern: string): Promise<string[]> {
  const keys = new Set<string>(); // SCAN may return a key twice
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return [...keys].sort();
}

/** A client pointed at a closed port that fails at once instead of queueing commands. */
export function unreachableRedisClient(): Redis {
  const client = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => undefined);
  return client;
}

/**
 * A TCP relay to the real Redis that the test can stop, to take Redis away from a client that
 * was connected (a stopped server, seen from the application).
 */
export async function stoppableRedisRelay(): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay = createServer((incoming) => {
    const outgoing = connect(6379, '127.0.0.1');
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

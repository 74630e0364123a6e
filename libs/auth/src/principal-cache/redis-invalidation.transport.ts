import type { RedisPubSubClient, RedisSubscriber } from '../config/auth-options.js';
import { closeRedis, type OwnedRedis } from '../redis/owned-redis.js';
import type { InvalidationListener, InvalidationTransport } from './invalidation-transport.js';

/** How `CLIENT LIST` names the subscribing connection. */
export const SUBSCRIBER_CONNECTION_NAME = 'svc-principal-cache';
const STARTUP_WAIT_MS = 2000;

/**
 * Redis pub/sub through the application's ioredis client: messages are published once the
 * revocation committed, and a duplicate connection subscribes. ioredis reconnects on its own; the
 * cache is down from the connection's `close` until it is `ready` and subscribed again. `stop`
 * closes the duplicate, and the client too when svc opened it (`owned`, from `{ url }`); a client
 * the application gave stays open.
 */
export class RedisInvalidationTransport implements InvalidationTransport {
  readonly transactional = false;
  private subscriber?: RedisSubscriber;
  /** Moves on at every loss, so a subscription that completes after a newer loss does not bring the cache up. */
  private connection = 0;

  constructor(
    private readonly redis: RedisPubSubClient,
    private readonly channel: string,
    private readonly owned?: OwnedRedis,
  ) {}

  start(listener: InvalidationListener): Promise<void> {
    const subscriber = this.redis.duplicate({ connectionName: SUBSCRIBER_CONNECTION_NAME });
    this.subscriber = subscriber;
    subscriber.on('message', (channel, message) => {
      if (channel === this.channel) listener.message(message);
    });
    const lost = () => {
      this.connection++;
      listener.down();
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    // ioredis reports connection errors here, then reconnects; the cache is down meanwhile.
    subscriber.on('error', () => undefined);
    const subscribe = async () => {
      const connection = this.connection;
      try {
        await subscriber.subscribe(this.channel);
      } catch {
        return;
      }
      if (connection === this.connection) listener.up();
    };
    subscriber.on('ready', () => void subscribe());
    // Startup waits for the subscription a little, never for an unreachable Redis: the cache stays down until it answers.
    return Promise.race([subscribe(), new Promise<void>((resolve) => setTimeout(resolve, STARTUP_WAIT_MS).unref())]);
  }

  async publish(_manager: unknown, message: string): Promise<void> {
    await this.redis.publish(this.channel, message);
  }

  async stop(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => subscriber.disconnect());
    if (this.owned) await closeRedis(this.owned);
  }
}

import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { checkResult, fixedWindowAt } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

/**
 * Atomic increment with conditional expiry, in one round trip: Redis runs a script without
 * interleaving any other command, so concurrent INCRs on one key from any number of instances
 * count exactly, and the expiry is set only by the request that created the counter.
 */
const INCREMENT_WITH_EXPIRY = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;
const INCREMENT_WITH_EXPIRY_SHA = createHash('sha1').update(INCREMENT_WITH_EXPIRY).digest('hex');

/** Lets a counter outlive its window a little, so a small clock skew between instances and Redis never drops a live count. */
const EXPIRY_MARGIN_MS = 1000;

export const DEFAULT_REDIS_KEY_PREFIX = 'svc:rate-limit:';

/**
 * The commands the limiter sends. An ioredis `Redis` client has them, and so has an ioredis
 * `Cluster`: each counter is one key, so its script runs on the node that holds it.
 */
export interface RedisCommands {
  evalsha(sha1: string, numberOfKeys: number, key: string, expiryMs: number): Promise<unknown>;
  eval(script: string, numberOfKeys: number, key: string, expiryMs: number): Promise<unknown>;
  ping(): Promise<unknown>;
}

/**
 * Counters in Redis through ioredis. The window number is part of the key and comes from the
 * injected clock, so a new window is simply a new key (the old one expires on its own).
 */
export class RedisRateLimitStorage implements RateLimitStorage {
  constructor(
    private readonly redis: RedisCommands,
    private readonly clock: Clock,
    private readonly keyPrefix = DEFAULT_REDIS_KEY_PREFIX,
  ) {}

  async check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    const counterKey = `${this.keyPrefix}${window.start}:${key}`;
    const count = await this.incrementWithExpiry(counterKey, window.end - now + EXPIRY_MARGIN_MS);
    return checkResult(count, max, window.end, now);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  private async incrementWithExpiry(counterKey: string, expiryMs: number): Promise<number> {
    try {
      return Number(await this.redis.evalsha(INCREMENT_WITH_EXPIRY_SHA, 1, counterKey, expiryMs));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return Number(await this.redis.eval(INCREMENT_WITH_EXPIRY, 1, counterKey, expiryMs));
    }
  }
}

import type { OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Clock } from '../../config/clock.js';
import { DEFAULT_REDIS_KEY_PREFIX, type RedisCommands } from '../../config/auth-options.js';
import { closeRedis, type OwnedRedis } from '../../redis/owned-redis.js';
import { CoalescedIncrements, type Counted } from '../coalesced-increments.js';
import { checkResult, fixedWindowAt, peekResult } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

/**
 * Atomic increment with conditional expiry, in one round trip: Redis runs a script without
 * interleaving any other command, so concurrent increments of one key from any number of
 * instances count exactly, and the expiry is set only by the increment that created the counter
 * (the one whose count equals its own amount). An amount of 0 reads the count (0 when there is no
 * counter) and writes nothing: `peek`.
 */
const INCREMENT_WITH_EXPIRY = `
local amount = tonumber(ARGV[2])
if amount == 0 then return tonumber(redis.call('GET', KEYS[1]) or '0') end
local count = redis.call('INCRBY', KEYS[1], amount)
if count == amount then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;
const INCREMENT_WITH_EXPIRY_SHA = createHash('sha1').update(INCREMENT_WITH_EXPIRY).digest('hex');

/** Lets a counter outlive its window a little, so a small clock skew between instances and Redis never drops a live count. */
const EXPIRY_MARGIN_MS = 1000;

/**
 * Counters in Redis through ioredis. The window number is part of the key and comes from the
 * injected clock, so a new window is simply a new key (the old one expires on its own). Checks of
 * a key that arrive while its script runs are counted together by the next one
 * (`CoalescedIncrements`). The client is the application's, left open at shutdown, unless svc
 * opened it (`owned`, from `rateLimit.redis: { url }`).
 */
export class RedisRateLimitStorage implements RateLimitStorage, OnApplicationShutdown {
  private readonly increments = new CoalescedIncrements((key, windowSeconds, amount) => this.incrementBy(key, windowSeconds, amount));

  constructor(
    private readonly redis: RedisCommands,
    private readonly clock: Clock,
    private readonly keyPrefix = DEFAULT_REDIS_KEY_PREFIX,
    private readonly owned?: OwnedRedis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.owned) await closeRedis(this.owned);
  }

  async check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const counted = await this.increments.add(key, windowSeconds);
    return checkResult(counted.count, max, counted.windowEnd, this.clock.now().getTime());
  }

  /** One read of the counter, beside the increments in flight (it sees those that have run). */
  async peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    const count = await this.addToCounter(`${this.keyPrefix}${window.start}:${key}`, 0, 0);
    return peekResult(count, max, window.end, now);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  private async incrementBy(key: string, windowSeconds: number, amount: number): Promise<Counted> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    const counterKey = `${this.keyPrefix}${window.start}:${key}`;
    return { count: await this.addToCounter(counterKey, window.end - now + EXPIRY_MARGIN_MS, amount), windowEnd: window.end };
  }

  private async addToCounter(counterKey: string, expiryMs: number, amount: number): Promise<number> {
    try {
      return Number(await this.redis.evalsha(INCREMENT_WITH_EXPIRY_SHA, 1, counterKey, expiryMs, amount));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return Number(await this.redis.eval(INCREMENT_WITH_EXPIRY, 1, counterKey, expiryMs, amount));
    }
  }
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { RedisRateLimitStorage } from '#svc/auth';
import { canUseRedis, deleteKeys, newRedisClient, randomRedisPrefix } from '../support/redis.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from '../support/window-aligned.js';
import { describeRateLimitStorageContract } from '../support/storage-contract.js';
import { describeNotRun } from '../../support/not-run.js';

if (await canUseRedis()) {
  describeRateLimitStorageContract('Redis (two ioredis connections)', async (clock) => {
    const prefix = randomRedisPrefix();
    const clients = [newRedisClient(), newRedisClient()] as const;
    return {
      instances: [new RedisRateLimitStorage(clients[0], clock, prefix), new RedisRateLimitStorage(clients[1], clock, prefix)],
      close: async () => {
        await deleteKeys(clients[0], prefix);
        for (const client of clients) client.disconnect();
      },
    };
  });

  describe('Redis backend', () => {
    // Opened in beforeAll, not here: Jest skips afterAll when a -t filter runs none of these tests, and an open connection keeps it from exiting.
    let client: Redis;
    const prefix = randomRedisPrefix();
    beforeAll(() => {
      client = newRedisClient();
    });

    afterAll(async () => {
      await deleteKeys(client, prefix);
      client.disconnect();
    });

    it('loads its script again when the server lost it (NOSCRIPT)', async () => {
      const storage = new RedisRateLimitStorage(client, new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS)), prefix);
      await client.script('FLUSH');
      expect(await storage.check('k', 60, 5)).toMatchObject({ allowed: true, count: 1 });
      expect(await storage.check('k', 60, 5)).toMatchObject({ allowed: true, count: 2 });
    });

    it('peek reads without writing: no key for a counter never counted, and no expiry moved', async () => {
      const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS + 50_000));
      const storage = new RedisRateLimitStorage(client, clock, prefix);
      expect((await storage.peek('looked-at', 60, 5)).count).toBe(0);
      expect(await client.exists(`${prefix}${WINDOW_ALIGNED_EPOCH_MS}:looked-at`)).toBe(0);
      await storage.check('looked-at', 60, 5);
      const ttl = await client.pttl(`${prefix}${WINDOW_ALIGNED_EPOCH_MS}:looked-at`);
      clock.advance(5_000);
      expect((await storage.peek('looked-at', 60, 5)).count).toBe(1);
      expect(await client.pttl(`${prefix}${WINDOW_ALIGNED_EPOCH_MS}:looked-at`)).toBeLessThanOrEqual(ttl);
      expect(await client.get(`${prefix}${WINDOW_ALIGNED_EPOCH_MS}:looked-at`)).toBe('1');
    });

    it('lets a counter expire on its own shortly after its window', async () => {
      const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS + 50_000));
      await new RedisRateLimitStorage(client, clock, prefix).check('ttl', 60, 5);
      const ttl = await client.pttl(`${prefix}${WINDOW_ALIGNED_EPOCH_MS}:ttl`);
      expect(ttl).toBeGreaterThan(10_000);
      expect(ttl).toBeLessThanOrEqual(11_000);
    });

    it("counts concurrent checks together exactly and keeps the counter's first expiry as it grows", async () => {
      const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS + 50_000));
      const storage = new RedisRateLimitStorage(client, clock, prefix);
      const counts = (await Promise.all(Array.from({ length: 20 }, () => storage.check('together', 60, 100)))).map((check) => check.count);
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const key = `${prefix}${WINDOW_ALIGNED_EPOCH_MS}:together`;
      const ttl = await client.pttl(key);
      expect(ttl).toBeGreaterThan(10_000);
      expect(ttl).toBeLessThanOrEqual(11_000);
      clock.advance(5_000);
      await storage.check('together', 60, 100);
      expect(await client.pttl(key)).toBeLessThanOrEqual(ttl);
      expect(await client.get(key)).toBe('21');
    });
  });
} else {
  describeNotRun('RateLimitStorage contract: Redis', 'Redis unreachable on 127.0.0.1:6379 (REQUIRE_REDIS=1 makes this a failure)');
}

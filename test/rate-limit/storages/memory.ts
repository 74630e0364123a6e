import { describe, expect, it } from '@jest/globals';
import { MemoryRateLimitStorage } from '#svc/auth';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from '../support/window-aligned.js';
import { describeRateLimitStorageContract } from '../support/storage-contract.js';

// The memory backend counts within one process: both "instances" are the same storage.
describeRateLimitStorageContract('memory', async (clock) => {
  const storage = new MemoryRateLimitStorage(clock);
  return { instances: [storage, storage], close: async () => storage.onApplicationShutdown() };
});

describe('the memory backend holds a bounded number of keys', () => {
  it('past the cap, ended windows go first, then new keys are refused while known keys still count', async () => {
    const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
    const storage = new MemoryRateLimitStorage(clock, { maxKeys: 3 });
    try {
      for (const key of ['a', 'b', 'c']) expect((await storage.check(key, 60, 5)).allowed).toBe(true);
      const refused = await storage.check('d', 60, 5);
      expect(refused).toEqual({ allowed: false, count: 6, retryAfterSeconds: 60 }); // over the limit: RateLimit-Remaining 0
      expect((await storage.check('a', 60, 5)).count).toBe(2);

      clock.advance(60_000); // a, b and c have ended: room for new keys again
      expect((await storage.check('d', 60, 5))).toEqual({ allowed: true, count: 1, retryAfterSeconds: 60 });
      expect((await storage.check('e', 60, 5)).allowed).toBe(true);
    } finally {
      storage.onApplicationShutdown();
    }
  });
});

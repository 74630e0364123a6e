import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { runToExit } from '../../support/run-to-exit.js';
import { describeNotRun } from '../../support/not-run.js';
import { createTestApp, TEST_SECRET } from '../../support/test-app.js';
import { canUseRedis, deleteKeys, newRedisClient, randomRedisPrefix, REDIS_URL, scanKeys } from '../support/redis.js';

/** How long the process may take to exit once `app.close()` has resolved: it has nothing left to do. */
const EXIT_DEADLINE_MS = 10_000;

if (await canUseRedis()) {
  // docs/guides/rate-limiting.md: who owns the Redis client of the redis backend.
  describe('rateLimit.redis: a client of the application, or { url } for svc to open and close', () => {
    // Opened in beforeAll, not here: Jest skips afterAll when a -t filter runs none of these tests, and an open connection keeps it from exiting.
    let inspector: Redis;
    const prefixes: string[] = [];
    beforeAll(() => {
      inspector = newRedisClient();
    });
    afterAll(async () => {
      for (const prefix of prefixes) await deleteKeys(inspector, prefix);
      inspector.disconnect();
    });

    it('with { url }, svc opens the client, counts in Redis, and closes it at app.close(): the process then exits by itself', async () => {
      const prefix = randomRedisPrefix();
      prefixes.push(prefix);
      const exited = await runToExit('test/support/redis-url-app.ts', ['rateLimit', REDIS_URL, prefix], EXIT_DEADLINE_MS);
      expect([exited.code, exited.stdout, exited.stderr]).toEqual([0, '{"statuses":[201,200,204]}\nclosed\n', '']);
      expect(await scanKeys(inspector, `${prefix}*`)).toEqual([expect.stringMatching(/:\/auth\/signup$/)]);
    }, 60_000);

    it("a client the application gives stays open after app.close(): svc never quits it", async () => {
      const prefix = randomRedisPrefix();
      prefixes.push(prefix);
      const client = newRedisClient();
      try {
        const t = await createTestApp({ engine: 'sqlite', options: { secret: TEST_SECRET, rateLimit: { backend: 'redis', redis: client, redisKeyPrefix: prefix } } });
        await request(t.server).post('/auth/login').set('Origin', 'http://app.test').send({ email: 'nobody@example.com', password: 'correct horse battery' }).expect(401);
        await t.close();
        expect([client.status, await client.ping()]).toEqual(['ready', 'PONG']);
      } finally {
        client.disconnect();
      }
    });
  });
} else {
  describeNotRun('rateLimit.redis: a client of the application, or { url } for svc to open and close', 'Redis unreachable on 127.0.0.1:6379 (REQUIRE_REDIS=1 makes this a failure)');
}

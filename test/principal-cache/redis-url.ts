import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { eventually } from '../support/eventually.js';
import { describeNotRun } from '../support/not-run.js';
import { runToExit } from '../support/run-to-exit.js';
import { createTestApp } from '../support/test-app.js';
import { canUseRedis, newRedisClient, REDIS_URL } from '../rate-limit/support/redis.js';

/** How long the process may take to exit once `app.close()` has resolved: it has nothing left to do. */
const EXIT_DEADLINE_MS = 10_000;
const TITLE = 'principalCache.redis: a client of the application, or { url } for svc to open and close (docs/guides/principal-cache.md)';

if (await canUseRedis()) {
  describe(TITLE, () => {
    // Opened in beforeAll, not here: Jest skips afterAll when a -t filter runs none of these tests, and an open connection keeps it from exiting.
    let listener: Redis;
    beforeAll(() => {
      listener = newRedisClient();
    });
    afterAll(() => listener.disconnect());

    it('with { url }, svc opens the client (and the duplicate it subscribes on), publishes the logout through it, and closes both at app.close(): the process then exits by itself', async () => {
      const channel = `svc_test_${randomBytes(6).toString('hex')}`;
      const messages: string[] = [];
      listener.on('message', (from, message) => from === channel && messages.push(message));
      await listener.subscribe(channel);
      const exited = await runToExit('test/support/redis-url-app.ts', ['principalCache', REDIS_URL, channel], EXIT_DEADLINE_MS);
      expect([exited.code, exited.stdout, exited.stderr]).toEqual([0, '{"statuses":[201,200,204]}\nclosed\n', '']);
      // The logout's invalidation went out through svc's client.
      await eventually('the logout is published', () => messages.length > 0);
      await listener.unsubscribe(channel);
    }, 60_000);

    it('a client the application gives stays open after app.close(): svc closes only the duplicate it subscribed on', async () => {
      const client = newRedisClient();
      try {
        const t = await createTestApp({ engine: 'sqlite', options: { principalCache: { redis: client, channel: `svc_test_${randomBytes(6).toString('hex')}` } } });
        await t.close();
        expect([client.status, await client.ping()]).toEqual(['ready', 'PONG']);
      } finally {
        client.disconnect();
      }
    });
  });
} else {
  describeNotRun(TITLE, 'Redis unreachable on 127.0.0.1:6379 (REQUIRE_REDIS=1 makes this a failure)');
}

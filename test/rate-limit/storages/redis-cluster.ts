import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TerminusModule } from '@nestjs/terminus';
import request from 'supertest';
import { RedisRateLimitStorage } from '#svc/auth';
import { AuthHealthIndicator } from '#svc/auth/health';
import { createTestApp, TEST_SECRET } from '../../support/test-app.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from '../support/window-aligned.js';
import { canStartRedisCluster, type RedisClusterUnderTest, startRedisCluster } from '../support/redis-cluster.js';
import { describeRateLimitStorageContract } from '../support/storage-contract.js';
import { accountName } from '../support/account-name.js';
import { describeNotRun } from '../../support/not-run.js';
import { HealthController } from '../../support/health-controller.js';

/** Keys the limiter makes for twelve clients: addresses, accounts and IPv6 /64s; their slots fall on all three masters. */
const CLIENT_KEYS = [1, 2, 3, 4].flatMap((i) => [`198.51.100.${i}:/auth/login`, `account:user-${i}@example.io:/auth/login`, `2001:db8:${i}::/64:/auth/login`]);

if (canStartRedisCluster()) {
  /**
   * Each counter is one key and the script touches only that key, so it runs on the master that
   * holds the key's slot: a Cluster needs no hash tags and refuses no script as CROSSSLOT.
   */
  describe('Redis Cluster of three masters', () => {
    let cluster: RedisClusterUnderTest;

    beforeAll(async () => {
      cluster = await startRedisCluster();
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    describeRateLimitStorageContract('Redis Cluster (two ioredis Cluster connections)', async (clock) => {
      const [first, second] = [cluster.connect(), cluster.connect()];
      return {
        instances: [new RedisRateLimitStorage(first, clock, 'contract:'), new RedisRateLimitStorage(second, clock, 'contract:')],
        // stop() closes the clients and throws the whole cluster away.
        close: async () => undefined,
      };
    });

    /** The counters each master holds itself (key → count), in the order of the cluster's ports. */
    const countersPerMaster = (prefix: string) =>
      Promise.all(
        cluster.ports.map(async (port) => {
          const node = cluster.node(port);
          const keys = await node.keys(`${prefix}*`);
          return new Map(await Promise.all(keys.map(async (key) => [key, await node.get(key)] as const)));
        }),
      );

    it('spreads the counters of different clients over all three masters, each counted exactly', async () => {
      const storage = new RedisRateLimitStorage(cluster.connect(), new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS)), 'spread:');
      const clients = CLIENT_KEYS;
      // Three checks of each client at once, against a max of 2.
      const results = await Promise.all(clients.flatMap((client) => [1, 2, 3].map(() => storage.check(client, 60, 2))));
      for (const [i] of clients.entries()) {
        const ofClient = results.slice(3 * i, 3 * i + 3);
        expect(ofClient.map((result) => result.count).sort()).toEqual([1, 2, 3]);
        expect(ofClient.filter((result) => result.allowed)).toHaveLength(2);
      }

      // Each master answers for its own slots only: asking each one shows where the counters live.
      const perNode = await countersPerMaster('spread:');
      for (const counters of perNode) expect(counters.size).toBeGreaterThan(0);
      const all = new Map(perNode.flatMap((counters) => [...counters]));
      expect([...all.keys()].sort()).toEqual(clients.map((client) => `spread:${WINDOW_ALIGNED_EPOCH_MS}:${client}`).sort());
      expect([...all.values()]).toEqual(Array(clients.length).fill('3'));
    });

    it('loads its script again on every master that lost it (NOSCRIPT)', async () => {
      const client = cluster.connect();
      const storage = new RedisRateLimitStorage(client, new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS)), 'flushed:');
      const clients = CLIENT_KEYS;
      await Promise.all(clients.map((key) => storage.check(key, 60, 5)));
      await Promise.all(cluster.ports.map((port) => cluster.node(port).script('FLUSH')));
      const again = await Promise.all(clients.map((key) => storage.check(key, 60, 5)));
      expect(again.map((result) => result.count)).toEqual(Array(clients.length).fill(2));
      for (const counters of await countersPerMaster('flushed:')) expect(counters.size).toBeGreaterThan(0);
    });

    it('AuthModule takes a Cluster client: it boots, limits a library route and reports Redis up', async () => {
      const t = await createTestApp({
        engine: 'sqlite',
        imports: [TerminusModule.forRoot({ logger: false })],
        controllers: [HealthController],
        providers: [AuthHealthIndicator],
        options: { secret: TEST_SECRET, rateLimit: { backend: 'redis', redis: cluster.connect(), max: 3, windowSeconds: 60 } },
      });
      try {
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await request(t.server).post('/auth/login').send({ email: `nobody-${i}@example.io`, password: 'wrong horse battery' })).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
        const health = await request(t.server).get('/health');
        expect([health.status, health.body.details]).toEqual([200, { svc: { status: 'up', database: 'up', redis: 'up' } }]);
      } finally {
        await t.close();
      }
    });

    it("AuthModule's rateLimit.redisKeyPrefix holds on a Cluster: every counter under it, spread over the masters", async () => {
      const t = await createTestApp({
        engine: 'sqlite',
        options: { secret: TEST_SECRET, rateLimit: { backend: 'redis', redis: cluster.connect(), redisKeyPrefix: 'billing:', max: 3, windowSeconds: 60, trustedIpHeader: 'x-forwarded-for' } },
      });
      try {
        // Each account fails to log in from an IPv4 address and from an IPv6 /64: twenty counters.
        for (const i of [1, 2, 3, 4]) {
          for (const from of [`198.51.100.${i}`, `2001:db8:${i}::1`]) {
            const response = await request(t.server).post('/auth/login').set('X-Forwarded-For', from).send({ email: `user-${i}@example.io`, password: 'wrong horse battery' });
            expect(response.status).toBe(401);
          }
        }
        // The test app's clock starts at WINDOW_ALIGNED_EPOCH_MS, the start of a 60 s window.
        const perNode = await countersPerMaster('billing:');
        for (const counters of perNode) expect(counters.size).toBeGreaterThan(0);
        const all = new Map(perNode.flatMap((counters) => [...counters]));
        const clients = [1, 2, 3, 4].flatMap((i) => {
          const account = `account:${accountName(TEST_SECRET, `user-${i}@example.io`)}`;
          return [`198.51.100.${i}:/auth/login`, `2001:db8:${i}:0::/64:/auth/login`, `${account}:198.51.100.${i}:/auth/login`, `${account}:2001:db8:${i}:0::/64:/auth/login`, `${account}:/auth/login`];
        });
        expect([...all.keys()].sort()).toEqual(clients.map((client) => `billing:${WINDOW_ALIGNED_EPOCH_MS}:${client}`).sort());
      } finally {
        await t.close();
      }
    });
  });
} else {
  describeNotRun('Redis Cluster of three masters', 'redis-server and redis-cli are needed (REQUIRE_REDIS=1 makes this a failure)');
}

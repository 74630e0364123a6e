import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { randomBytes, randomInt } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TEST_SECRET, type TestApp, TestClock } from '../../support/test-app.js';
import { describeNotRun } from '../../support/not-run.js';
import { canUseRedis, newRedisClient, randomRedisPrefix, scanKeys } from '../support/redis.js';
import { accountName } from '../support/account-name.js';

const WINDOW_SECONDS = 60;
const DEFAULT_PREFIX = 'svc:rate-limit:';
/** Every app starts its clock at TestClock's default time and none advances it: one window. */
const WINDOW_START = Math.floor(new TestClock().now().getTime() / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;

interface Client {
  address: string;
  network: string;
  email: string;
}

/** Four hex digits without a leading zero, as an IPv6 address prints them. */
const hexGroup = () => randomInt(0x1000, 0x10000).toString(16);

/**
 * The keys a failed login makes (docs/guides/rate-limiting.md: `<prefix><window start>:<key>`): its
 * address, then its account's failures from that address and from all, the account named by its HMAC.
 */
const loginKeys = (prefix: string, from: Client) => {
  const account = accountName(TEST_SECRET, from.email);
  return [`${prefix}${WINDOW_START}:${from.network}:/auth/login`, `${prefix}${WINDOW_START}:account:${account}:${from.network}:/auth/login`, `${prefix}${WINDOW_START}:account:${account}:/auth/login`];
};

if (await canUseRedis()) {
  // docs/guides/rate-limiting.md: rateLimit.redisKeyPrefix starts every counter key, so applications sharing one Redis count apart.
  describe('rateLimit.redisKeyPrefix on one shared Redis', () => {
    const connections: Redis[] = [];
    const apps: TestApp[] = [];
    // Opened in beforeAll, not here: Jest skips afterAll when a -t filter runs none of these tests, and an open connection keeps it from exiting.
    let inspector: Redis;
    beforeAll(() => {
      inspector = newRedisClient();
    });
    const [billing, shop] = [randomRedisPrefix(), randomRedisPrefix()];
    // Every run uses its own addresses and emails: a shared Redis keeps counters between runs.
    const clients: Client[] = [];

    afterAll(async () => {
      for (const app of apps) await app.close();
      // Exactly this suite's keys, under whichever prefix they landed (a failed test included).
      await inspector.del(...clients.flatMap((client) => [billing, shop, DEFAULT_PREFIX].flatMap((prefix) => loginKeys(prefix, client))));
      for (const connection of [...connections, inspector]) connection.disconnect();
    });

    /** An application with its own connection to the shared Redis. */
    async function start(redisKeyPrefix: string | undefined): Promise<TestApp> {
      const redis = newRedisClient();
      connections.push(redis);
      const app = await createTestApp({
        engine: 'sqlite',
        options: { secret: TEST_SECRET, rateLimit: { backend: 'redis', redis, redisKeyPrefix, max: 3, windowSeconds: WINDOW_SECONDS, trustedIpHeader: 'x-forwarded-for' } },
      });
      apps.push(app);
      return app;
    }

    function newClient(): Client {
      const network = `2001:db8:${hexGroup()}:${hexGroup()}`;
      const client = { address: `${network}::1`, network: `${network}::/64`, email: `alice-${randomBytes(6).toString('hex')}@example.com` };
      clients.push(client);
      return client;
    }

    async function loginStatuses(app: TestApp, from: Client, attempts: number): Promise<number[]> {
      const statuses: number[] = [];
      for (let i = 0; i < attempts; i++) {
        const response = await request(app.server).post('/auth/login').set('X-Forwarded-For', from.address).send({ email: from.email, password: 'wrong horse battery' });
        statuses.push(response.status);
      }
      return statuses;
    }

    /** Every key in Redis naming this client, by its address or its account, whatever its prefix. */
    const keysNaming = async (client: Client) => {
      expect(await scanKeys(inspector, `*${client.email}*`)).toEqual([]);
      return [...new Set([...(await scanKeys(inspector, `*${client.network}*`)), ...(await scanKeys(inspector, `*${accountName(TEST_SECRET, client.email)}*`))])].sort();
    };

    it('two applications with different prefixes count apart; two instances of one application, with one prefix, count together', async () => {
      const [billingApp, shopApp, billingAgain] = [await start(billing), await start(shop), await start(billing)];
      const alice = newClient();

      expect(await loginStatuses(billingApp, alice, 4)).toEqual([401, 401, 401, 429]);
      // Same client, same route, same window: only the prefix differs, and the shop has counted nothing yet.
      expect(await loginStatuses(shopApp, alice, 4)).toEqual([401, 401, 401, 429]);
      expect(await loginStatuses(billingAgain, alice, 1)).toEqual([429]);

      expect(await scanKeys(inspector, `${billing}*`)).toEqual(loginKeys(billing, alice).sort());
      expect(await scanKeys(inspector, `${shop}*`)).toEqual(loginKeys(shop, alice).sort());
      // Nothing of this client's was written anywhere else, e.g. under the default prefix.
      expect(await keysNaming(alice)).toEqual([...loginKeys(billing, alice), ...loginKeys(shop, alice)].sort());
      // The address counter holds both billing instances' attempts (4 + 1); the account's failures only the three that reached the password check.
      expect(await inspector.mget(...loginKeys(billing, alice))).toEqual(['5', '3', '3']);
    });

    it('without the option, counters stay under svc:rate-limit:, where earlier versions kept them', async () => {
      const app = await start(undefined);
      const bob = newClient();
      expect(await loginStatuses(app, bob, 1)).toEqual([401]);
      expect(await keysNaming(bob)).toEqual(loginKeys(DEFAULT_PREFIX, bob).sort());
    });
  });
} else {
  describeNotRun('rateLimit.redisKeyPrefix on one shared Redis', 'Redis unreachable on 127.0.0.1:6379 (REQUIRE_REDIS=1 makes this a failure)');
}

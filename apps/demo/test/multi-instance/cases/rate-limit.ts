import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newRedisClient } from '../../../../../test/rate-limit/support/redis.js';
import { pairsForSuite } from '../support/demo-pair.js';
import { type Received, send } from '../support/http.js';
import { canUsePostgresAndRedis, describeMissingEngines } from '../support/requirements.js';

const MAX = 5;
const BACKENDS = ['database', 'redis'] as const;

/** A run of its own: client addresses in 2001:db8::/32 (RFC 3849) and account emails no other run uses. */
const RUN = randomBytes(2).toString('hex');
const DOMAIN = `rl-${RUN}.example.io`;
let clients = 0;
/** A fresh client: the limiter counts an IPv6 address by its /64. */
const newClient = () => `2001:db8:${RUN}:${(++clients).toString(16)}::1`;
let accounts = 0;

if (await canUsePostgresAndRedis()) {
  // Both backends' pairs start with the suite's others.
  const limited = (backend: (typeof BACKENDS)[number]) => ({
    AUTH_STRATEGY: 'session',
    RATE_LIMIT_BACKEND: backend,
    RATE_LIMIT_MAX: String(MAX),
    // A day-long window: no window boundary falls inside a test run but once a day.
    RATE_LIMIT_WINDOW_SECONDS: '86400',
    TRUSTED_IP_HEADER: 'x-forwarded-for',
  });
  const pairs = pairsForSuite({ database: limited('database'), redis: limited('redis') });
  afterAll(async () => {
    await deleteRunKeys();
  });

  describe.each(BACKENDS)('two instances limited by RATE_LIMIT_BACKEND=%s count as one', (backend) => {
    let instances: [string, string];

    beforeAll(() => {
      const { instances: [a, b] } = pairs[backend]!;
      instances = [a.baseUrl, b.baseUrl];
    });

    /** A failed login of a new account each time, so that only the client's counter fills up. */
    const attempt = (instance: 0 | 1, client: string) =>
      send(instances[instance], 'POST', '/auth/login', { forwardedFor: client, body: { email: `nobody-${++accounts}@${DOMAIN}`, password: 'wrong horse battery' } });

    it(`lets ${MAX} attempts through in total, alternating A/B, and refuses the next on either instance`, async () => {
      const client = newClient();
      for (let i = 0; i < MAX; i++) {
        const response = await attempt(i % 2 === 0 ? 0 : 1, client);
        expect([response.status, response.headers.get('ratelimit-remaining')]).toEqual([401, String(MAX - 1 - i)]);
      }
      for (const instance of [0, 1] as const) expectRefused(await attempt(instance, client));
      // Another client is not affected.
      expect((await attempt(1, newClient())).status).toBe(401);
    });

    it(`lets exactly ${MAX} of ${2 * MAX} concurrent attempts over both instances through`, async () => {
      const client = newClient();
      const responses = await Promise.all(Array.from({ length: 2 * MAX }, (_, i) => attempt(i % 2 === 0 ? 0 : 1, client)));
      const passed = responses.filter((response) => response.status === 401);
      expect(passed).toHaveLength(MAX);
      // Every place in the window was handed out once: no lost or doubled increment.
      expect(passed.map((response) => Number(response.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(Array.from({ length: MAX }, (_, i) => i));
      for (const response of responses.filter((response) => response.status !== 401)) expectRefused(response);
      for (const instance of [0, 1] as const) expectRefused(await attempt(instance, client));
    });
  });
} else {
  describeMissingEngines('two instances limited by the database and Redis backends count as one');
}

function expectRefused(response: Received): void {
  expect([response.status, response.body?.code]).toEqual([429, 'RATE_LIMITED']);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** The counters this run left in the shared Redis (the demo uses the default key prefix). */
async function deleteRunKeys(): Promise<void> {
  const redis = newRedisClient();
  try {
    const keys = [...(await redis.keys(`svc:rate-limit:*:2001:db8:${RUN}:*`)), ...(await redis.keys(`svc:rate-limit:*@${DOMAIN}:*`))];
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

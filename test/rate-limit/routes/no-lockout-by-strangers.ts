import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { AuthEvent, type RateLimitOptions, RateLimitStorage } from '#svc/auth';
import { availableEngines, type Engine, behaviourOnly } from '../../support/engines.js';
import { listenOnLoopback } from '../../support/listen.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { ACCOUNT_KEY, accountName } from '../support/account-name.js';
import { type Answer, postFrom } from '../support/loopback-client.js';
import { canUseRedis, deleteKeys, newRedisClient, randomRedisPrefix, scanKeys } from '../support/redis.js';

interface Variant {
  name: string;
  engine: Engine;
  backend: NonNullable<RateLimitOptions['backend']>;
}

const engines = await availableEngines();
const variants: Variant[] = [
  { name: 'memory', engine: 'sqlite', backend: 'memory' },
  ...engines.map((engine): Variant => ({ name: `database on ${engine}`, engine, backend: 'database' })),
  ...((await canUseRedis()) ? [{ name: 'redis', engine: 'sqlite', backend: 'redis' } as Variant] : []),
];

const MAX = 3;
const CEILING = 6;
const PASSWORD = 'correct horse battery';
const OWNER = 'owner@example.io';
const WINDOW_MS = 60_000;

/** What a client sees of an answer: everything but the Date header. */
function seen(answer: Answer) {
  const { date: _date, ...headers } = answer.headers;
  return { status: answer.status, headers, text: answer.text };
}

/**
 * docs/guides/rate-limiting.md: one address cannot lock another out of an account. Every client here is
 * a socket bound to its own loopback address (127.0.0.2, 127.0.0.3, ...), so the limiter sees real
 * client addresses, with no forwarded header.
 */
describe.each(variants)('no lockout by strangers, backend $name', (variant) => {
  const behaviourIt = behaviourOnly(variant.engine, it);
  let t: TestApp;
  let baseUrl: string;
  let redis: Redis | undefined;
  let prefix: string;

  // One application for the variant; each test starts as on a new one: empty tables and the first clock
  // (t.reset()), no counter left (the memory backend's map cleared, the Redis keys of the prefix deleted).
  beforeAll(async () => {
    if (variant.backend === 'redis') redis = newRedisClient();
    prefix = randomRedisPrefix();
    t = await createTestApp({
      engine: variant.engine,
      options: { secret: TEST_SECRET, rateLimit: { max: MAX, windowSeconds: 60, accountCeiling: CEILING, backend: variant.backend, redis, redisKeyPrefix: prefix } },
    });
    baseUrl = await listenOnLoopback(t.server);
  });

  afterAll(async () => {
    await t?.close();
    if (redis) await deleteKeys(redis, prefix);
    redis?.disconnect();
  });

  beforeEach(async () => {
    await t.reset();
    if (variant.backend === 'memory') (t.app.get(RateLimitStorage) as unknown as { counters: Map<string, unknown> }).counters.clear();
    if (redis) await deleteKeys(redis, prefix);
    expect((await postFrom('127.0.0.10', baseUrl, '/auth/signup', { email: OWNER, password: PASSWORD })).status).toBe(201);
  });

  const login = (from: string, password: string, email = OWNER) => postFrom(from, baseUrl, '/auth/login', { email, password });
  const forgot = (from: string, email = OWNER) => postFrom(from, baseUrl, '/auth/forgot-password', { email });

  /** Every key the limiter holds, without the Redis prefix and window. */
  async function limiterKeys(): Promise<string[]> {
    switch (variant.backend) {
      case 'memory':
        // The memory backend's own map: what a heap dump of the process would show.
        return [...(t.app.get(RateLimitStorage) as unknown as { counters: Map<string, unknown> }).counters.keys()];
      case 'database':
        return ((await t.dataSource.query('SELECT "key" FROM rate_limit_counters')) as { key: string }[]).map((row) => row.key);
      case 'redis':
        return (await scanKeys(redis!, `${prefix}*`)).map((key) => key.slice(prefix.length).replace(/^\d+:/, ''));
    }
  }

  behaviourIt('an attacker at 127.0.0.2 failing every window never stops the owner at 127.0.0.3; the attacker meets its own limit', async () => {
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < MAX; i++) expect((await login('127.0.0.2', 'wrong password')).status).toBe(401);
      const refused = await login('127.0.0.2', PASSWORD);
      expect([refused.status, refused.body?.code, refused.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '60']);
      const owner = await login('127.0.0.3', PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.body?.email).toBe(OWNER);
      t.clock.advance(WINDOW_MS);
    }
  });

  behaviourIt("the ceiling slows a guess spread over addresses, and lets the owner's correct password from a fresh address through", async () => {
    for (const from of ['127.0.0.4', '127.0.0.5']) {
      for (let i = 0; i < MAX; i++) expect((await login(from, 'wrong password')).status).toBe(401);
    }
    // The account is at its ceiling: an address that has not failed still gets its guess, and no second.
    expect((await login('127.0.0.6', 'wrong password')).status).toBe(401);
    const slowed = await login('127.0.0.6', 'wrong password');
    expect([slowed.status, slowed.body?.code, slowed.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '60']);
    expect((await login('127.0.0.6', PASSWORD)).status).toBe(429);
    expect((await login('127.0.0.3', PASSWORD)).status).toBe(200);
    t.clock.advance(WINDOW_MS);
    expect((await login('127.0.0.6', PASSWORD)).status).toBe(200);
  });

  it(`of ${2 * MAX} concurrent failed logins from one address, exactly ${MAX} reach the password check, and no more failures are stored`, async () => {
    const answers = await Promise.all(Array.from({ length: 2 * MAX }, () => login('127.0.0.7', 'wrong password')));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(MAX).fill(401), ...Array(MAX).fill(429)]);
    const storage = t.app.get<RateLimitStorage>(RateLimitStorage);
    const account = `account:${accountName(TEST_SECRET, OWNER)}`;
    expect((await storage.peek(`${account}:127.0.0.7:/auth/login`, 60, MAX)).count).toBe(MAX);
    expect((await storage.peek(`${account}:/auth/login`, 60, CEILING)).count).toBe(MAX);
  });

  behaviourIt('forgot-password past the per-account limit answers exactly as below it, and sends nothing', async () => {
    const within: Answer[] = [];
    for (const from of ['127.0.0.11', '127.0.0.12', '127.0.0.13']) within.push(await forgot(from));
    const past = await forgot('127.0.0.14', ' Owner@Example.IO');
    expect(seen(within[0])).toMatchObject({ status: 202, text: '' });
    for (const answer of [...within.slice(1), past]) expect(seen(answer)).toEqual(seen(within[0]));
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.PasswordResetRequested)).toHaveLength(MAX);
  });

  behaviourIt('no limiter key holds an email: accounts are named by their HMAC', async () => {
    const victim = 'Victim.Name+tag@Example.io';
    await login('127.0.0.2', 'wrong password');
    await login('127.0.0.3', PASSWORD);
    await login('127.0.0.2', 'wrong password', victim);
    await forgot('127.0.0.4');
    await forgot('127.0.0.4', victim);
    await t.afterResponses();
    const keys = await limiterKeys();
    const owner = `account:${accountName(TEST_SECRET, OWNER)}`;
    expect(keys).toEqual(expect.arrayContaining([`${owner}:127.0.0.2:/auth/login`, `${owner}:/auth/login`, `${owner}:/auth/forgot-password`, '127.0.0.3:/auth/login']));
    expect(keys.filter((key) => ACCOUNT_KEY.test(key))).toHaveLength(6);
    expect(keys.filter((key) => key.includes('@') || /owner|victim|example/i.test(key))).toEqual([]);
  });
});

describe('the memory backend without any secret', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('starts, and names accounts by an HMAC under a key of its own', async () => {
    t = await createTestApp({ engine: 'sqlite', options: { rateLimit: { max: MAX } } });
    const baseUrl = await listenOnLoopback(t.server);
    expect((await postFrom('127.0.0.2', baseUrl, '/auth/login', { email: OWNER, password: 'wrong password' })).status).toBe(401);
    const keys = [...(t.app.get(RateLimitStorage) as unknown as { counters: Map<string, unknown> }).counters.keys()];
    expect(keys.filter((key) => ACCOUNT_KEY.test(key))).toHaveLength(2);
    expect(keys.filter((key) => key.includes('@') || key.includes(accountName(TEST_SECRET, OWNER)))).toEqual([]);
  });
});

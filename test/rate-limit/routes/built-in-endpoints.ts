import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { RateLimitOptions } from '#svc/auth';
import { BEHAVIOUR_ENGINES, type Engine } from '../../support/engines.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { canUseRedis, newRedisClient } from '../support/redis.js';

interface Variant {
  name: string;
  engine: Engine;
  backend: NonNullable<RateLimitOptions['backend']>;
}

const variants: Variant[] = [
  { name: 'memory', engine: 'sqlite', backend: 'memory' },
  ...BEHAVIOUR_ENGINES.map((engine): Variant => ({ name: `database on ${engine}`, engine, backend: 'database' })),
  ...((await canUseRedis()) ? [{ name: 'redis', engine: 'sqlite', backend: 'redis' } as Variant] : []),
];

const PASSWORD = 'correct horse battery';

// docs/guides/rate-limiting.md: with a rateLimit section, signup and login are limited out of the box (the other
// password endpoints live in controllers of their own), login also by its failures per account and address.
describe.each(variants)('built-in endpoints limited by AuthModule, backend $name', (variant) => {
  let t: TestApp;
  let redis: Redis | undefined;
  // Every run uses its own addresses and emails: a shared Redis keeps counters between runs.
  let run: string;
  const ip = (n: number) => `2001:db8:${run}:${n}::1`;
  const email = (name: string) => `${name}-${run}@example.com`;

  // One application for the variant: each test starts from empty tables and the first clock (t.reset()); the
  // counters a memory or Redis backend keeps are another test's addresses and emails (the run above).
  beforeAll(async () => {
    if (variant.backend === 'redis') redis = newRedisClient();
    t = await createTestApp({
      engine: variant.engine,
      options: { secret: TEST_SECRET, rateLimit: { max: 3, windowSeconds: 60, backend: variant.backend, trustedIpHeader: 'x-forwarded-for', redis } },
    });
  });

  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
  });

  beforeEach(async () => {
    run = randomBytes(2).toString('hex');
    await t.reset();
  });

  const signup = (from: string, address: string) => request(t.server).post('/auth/signup').set('X-Forwarded-For', from).send({ email: address, password: PASSWORD });
  const login = (from: string, address: string, password = PASSWORD) => request(t.server).post('/auth/login').set('X-Forwarded-For', from).send({ email: address, password });

  it('signup: a client gets max signups per window, then 429 with Retry-After and nothing stored', async () => {
    for (const name of ['a', 'b', 'c']) expect((await signup(ip(1), email(name))).status).toBe(201);
    const refused = await signup(ip(1), email('d'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Too many requests', code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toBe('60');
    expect(await t.dataSource.query('SELECT email FROM users')).toHaveLength(3);
    expect((await signup(ip(2), email('d'))).status).toBe(201);
  });

  it("login: failed attempts count per account and address, so other addresses' failures never refuse the owner; the window ends", async () => {
    await signup(ip(9), email('alice')).expect(201);
    for (let n = 0; n < 3; n++) expect((await login(ip(1), email('alice'), 'wrong password')).status).toBe(401);
    // The failing address meets its own limit, even with the right password.
    const refused = await login(ip(1), email('alice'));
    expect([refused.status, refused.body.code, refused.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '60']);
    // The owner, from an address that has not failed, is served (before, the account's count refused it).
    expect((await login(ip(4), ` ${email('ALICE')}`)).status).toBe(200);
    expect((await login(ip(4), email('bob'))).status).toBe(401);

    t.clock.advance(60_000);
    expect((await login(ip(1), email('alice'))).status).toBe(200);
  });

  it('login: one address gets max attempts whatever accounts it tries', async () => {
    for (const name of ['x', 'y', 'z']) expect((await login(ip(5), email(name))).status).toBe(401);
    expect((await login(ip(5), email('w'))).status).toBe(429);
    expect((await login(ip(6), email('w'))).status).toBe(401);
  });
});

describe('built-in endpoints without a rateLimit section', () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp({ engine: 'sqlite' });
  });

  afterEach(() => t.close());

  it('are not limited', async () => {
    for (let i = 0; i < 15; i++) {
      expect((await request(t.server).post('/auth/login').send({ email: 'nobody@example.com', password: PASSWORD })).status).toBe(401);
    }
  });
});

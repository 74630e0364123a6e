import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Inject, Injectable } from '@nestjs/common';
import request from 'supertest';
import { AUTH_CLOCK, type Clock, MemoryRateLimitStorage, RateLimitStorage } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const PASSWORD = 'correct horse';

// docs/guides/rate-limiting.md: with a rateLimit section, forgot-password (per address with 429, per account by
// sending nothing more past the limit) and reset-password (per address) are limited out of the box.
describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'password recovery rate limits on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    // One application for the describe; each test starts as on a new one (t.reset(): empty tables, the database limiter's counters with them, and the first clock).
    beforeAll(async () => {
      t = await createTestApp({
        engine,
        strategy,
        options: { ...recoveryOptions(strategy), rateLimit: { max: 3, windowSeconds: 60, backend: 'database', trustedIpHeader: 'x-forwarded-for' } },
      });
    });
    beforeEach(() => t.reset());
    afterAll(() => t?.close());

    const forgot = (from: string, email: string) => request(t.server).post('/auth/forgot-password').set('X-Forwarded-For', from).send({ email });
    const reset = (from: string, token: string) => request(t.server).post('/auth/reset-password').set('X-Forwarded-For', from).send({ token, password: 'battery staple' });

    /** What the client sees of an answer: everything but the Date header. */
    const seen = (response: request.Response) => {
      const { date: _date, ...headers } = response.headers;
      return { status: response.status, headers, body: response.body as unknown, text: response.text };
    };

    it('forgot-password: past the per-account limit, the same 202 and no further message or token that window, known and unknown emails alike', async () => {
      const client = new RecoveryClient(t, strategy);
      await client.createUser('known@x.io', PASSWORD);
      // One request from each address, so every answer stands at the same place of its address's count.
      // Each request's mail goes out before the next request, so the token mailed last is the one stored last
      // (two requests' work after the response may otherwise store and mail in different orders).
      const within = [];
      for (const n of [1, 2, 3]) {
        within.push(await forgot(`203.0.113.${n}`, 'known@x.io'));
        await t.afterResponses();
      }
      expect(client.tokensMailedTo('known@x.io')).toHaveLength(3);
      const tokenRows = await t.dataSource.query('SELECT id, token_hash FROM password_reset_tokens');
      expect(tokenRows).toHaveLength(1);

      const past = await forgot('203.0.113.9', ' Known@X.io');
      const unknown = [];
      for (const n of [11, 12, 13, 14]) unknown.push(await forgot(`203.0.113.${n}`, 'unknown@x.io'));
      for (const answer of [past, ...within.slice(1), ...unknown]) expect(seen(answer)).toEqual(seen(within[0]));
      expect(seen(past)).toMatchObject({ status: 202, text: '' });
      expect(past.headers['retry-after']).toBeUndefined();
      expect(past.headers['ratelimit-remaining']).toBe('2');

      await t.afterResponses();
      expect(client.resetEvents()).toHaveLength(3);
      // The token mailed last is still the user's only one, and still resets the password.
      expect(await t.dataSource.query('SELECT id, token_hash FROM password_reset_tokens')).toEqual(tokenRows);
      expect((await client.reset(client.tokensMailedTo('known@x.io')[2], 'battery staple')).status).toBe(204);

      t.clock.advance(60_000);
      expect((await forgot('203.0.113.9', 'known@x.io')).status).toBe(202);
      await t.afterResponses();
      expect(client.tokensMailedTo('known@x.io')).toHaveLength(4);
    });

    it('change-password: per user across addresses, so a stolen credential cannot spread its guesses', async () => {
      const signup = await request(t.server).post('/auth/signup').send({ email: 'owner@x.io', password: PASSWORD });
      const credential = strategy === 'session' ? { Cookie: signup.headers['set-cookie'] } : { Authorization: `Bearer ${signup.body.access_token}` };
      const change = (from: string, current: string) =>
        request(t.server).post('/auth/change-password').set('X-Forwarded-For', from).set(credential).send({ current_password: current, new_password: 'battery staple' });
      for (const n of [1, 2, 3]) expect((await change(`203.0.113.${n}`, `guess ${n}`)).status).toBe(403);
      const fourth = await change('203.0.113.4', PASSWORD);
      expect([fourth.status, fourth.body.code]).toEqual([429, 'RATE_LIMITED']);
      t.clock.advance(60_000);
      expect((await change('203.0.113.5', PASSWORD)).status).toBe(204);
    });

    it('forgot-password and reset-password: one address gets max requests per window', async () => {
      for (const name of ['a', 'b', 'c']) expect((await forgot('198.51.100.1', `${name}@x.io`)).status).toBe(202);
      expect((await forgot('198.51.100.1', 'd@x.io')).status).toBe(429);
      for (let n = 0; n < 3; n++) expect((await reset('198.51.100.2', `guess-${n}`)).status).toBe(400);
      const refused = await reset('198.51.100.2', 'guess-3');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect((await reset('198.51.100.3', 'guess-4')).status).toBe(400);
    });
  },
);

/** The memory backend, but its per-account counters cannot be written: a backend that fails after the response. */
@Injectable()
class AccountCountsDown extends MemoryRateLimitStorage {
  constructor(@Inject(AUTH_CLOCK) clock: Clock) {
    super(clock);
  }

  override async check(key: string, windowSeconds: number, max: number) {
    if (key.startsWith('account:')) throw new Error('backend gone');
    return super.check(key, windowSeconds, max);
  }
}

describe.each(['deny', 'allow'] as const)('forgot-password when the per-account count fails after the response, onBackendError %s', (onBackendError) => {
  let t: TestApp;
  const logger = new CapturingLogger();
  beforeEach(async () => {
    t = await createTestApp({
      engine: 'sqlite',
      logger,
      options: { ...recoveryOptions('session'), rateLimit: { max: 3, onBackendError } },
      overrides: [{ provide: RateLimitStorage, useClass: AccountCountsDown }],
    });
  });
  afterEach(() => t.close());

  it(onBackendError === 'deny' ? 'answers 202 and sends nothing, and says so in the log' : 'answers 202 and sends the message, with a warning', async () => {
    const client = new RecoveryClient(t, 'session');
    await client.createUser('known@x.io', PASSWORD);
    expect((await client.forgot('known@x.io')).status).toBe(202);
    await t.afterResponses();
    expect(client.tokensMailedTo('known@x.io')).toHaveLength(onBackendError === 'deny' ? 0 : 1);
    const level = onBackendError === 'deny' ? 'error' : 'warn';
    expect(logger.matching(level, 'rate-limit backend unavailable')).toHaveLength(1);
    expect(logger.lines.filter((line) => line.text.includes('known@x.io'))).toEqual([]);
  });
});

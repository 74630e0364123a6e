import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Controller, HttpCode, type INestApplication, Inject, Optional, Post } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AuthError, RateLimit, type RateLimitStorage, UnitOfWork } from '#svc/auth';
import { createLimitedApp } from './limited-app.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from './window-aligned.js';

/** What a backend's test file hands the contract suite. */
export interface StorageUnderTest {
  /** Two instances sharing one store (for the memory backend, the same instance twice). */
  instances: [RateLimitStorage, RateLimitStorage];
  /** For the database backend: the first instance's unit of work, used by a handler that fails. */
  unitOfWork?: UnitOfWork;
  close(): Promise<void>;
}

export type StorageFactory = (clock: TestClock) => Promise<StorageUnderTest>;

/**
 * The storage contract every backend meets on its real engine (docs/guides/rate-limiting.md): exact counting under concurrency, fixed windows that reset, counts that
 * stand when the request later fails, and `peek`, which reads a count without adding to it.
 */
export function describeRateLimitStorageContract(name: string, createStorage: StorageFactory): void {
  describe(`RateLimitStorage contract: ${name}`, () => {
    const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
    let storage: StorageUnderTest;
    let key: string;

    beforeAll(async () => {
      storage = await createStorage(clock);
    });

    afterAll(async () => {
      await storage?.close();
    });

    beforeEach(() => {
      clock.set(new Date(WINDOW_ALIGNED_EPOCH_MS));
      key = `203.0.113.${randomBytes(1)[0]}:/test/${randomBytes(6).toString('hex')}`;
    });

    it('counts each check and allows up to max in a window', async () => {
      const [limiter] = storage.instances;
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.check(key, 60, 3));
      expect(results.map((result) => [result.allowed, result.count])).toEqual([
        [true, 1],
        [true, 2],
        [true, 3],
        [false, 4],
      ]);
    });

    it('answers the seconds left in the window as retryAfterSeconds', async () => {
      const [limiter] = storage.instances;
      clock.advance(15_000);
      expect((await limiter.check(key, 60, 1)).retryAfterSeconds).toBe(45);
      clock.advance(44_500);
      expect((await limiter.check(key, 60, 1))).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    });

    it('lets exactly N of 3N concurrent checks through, from two instances sharing the store', async () => {
      const n = 25;
      const [first, second] = storage.instances;
      const checks = Array.from({ length: 3 * n }, (_, i) => (i % 2 === 0 ? first : second).check(key, 60, n));
      const results = await Promise.all(checks);
      expect(results.filter((result) => result.allowed)).toHaveLength(n);
      // Every count from 1 to 3N was handed out exactly once: no lost or doubled increment.
      expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 3 * n }, (_, i) => i + 1));
    });

    it('starts a new window when the clock passes its end, for every instance', async () => {
      const [first, second] = storage.instances;
      await first.check(key, 60, 2);
      await second.check(key, 60, 2);
      expect((await first.check(key, 60, 2)).allowed).toBe(false);
      clock.advance(59_999);
      expect((await second.check(key, 60, 2)).allowed).toBe(false);
      clock.advance(1);
      expect(await second.check(key, 60, 2)).toMatchObject({ allowed: true, count: 1, retryAfterSeconds: 60 });
      expect(await first.check(key, 60, 2)).toMatchObject({ allowed: true, count: 2 });
    });

    it('keeps keys apart', async () => {
      const [limiter] = storage.instances;
      expect((await limiter.check(key, 60, 1)).allowed).toBe(true);
      expect((await limiter.check(`${key}/other`, 60, 1)).allowed).toBe(true);
      expect((await limiter.check(`account:someone@example.com:${key}`, 60, 1)).allowed).toBe(true);
      expect((await limiter.check(key, 60, 1)).allowed).toBe(false);
    });

    it('counts keys longer than a database column holds', async () => {
      const [limiter] = storage.instances;
      const long = `account:${'a'.repeat(300)}@example.com:/auth/login`;
      expect((await limiter.check(long, 60, 1)).allowed).toBe(true);
      expect((await limiter.check(long, 60, 1)).allowed).toBe(false);
      expect((await limiter.check(`${long}x`, 60, 1)).allowed).toBe(true);
    });

    describe('peek', () => {
      it('answers the count of the window and counts nothing: 0 for a key never counted', async () => {
        const [limiter] = storage.instances;
        clock.advance(15_000);
        expect(await limiter.peek(key, 60, 3)).toEqual({ allowed: true, count: 0, retryAfterSeconds: 45 });
        await limiter.check(key, 60, 3);
        await limiter.check(key, 60, 3);
        for (let i = 0; i < 3; i++) expect(await limiter.peek(key, 60, 3)).toEqual({ allowed: true, count: 2, retryAfterSeconds: 45 });
        expect(await limiter.check(key, 60, 3)).toMatchObject({ allowed: true, count: 3 });
        // At max, one more would be over it: a peek says so without counting it.
        expect(await limiter.peek(key, 60, 3)).toEqual({ allowed: false, count: 3, retryAfterSeconds: 45 });
        expect(await limiter.check(key, 60, 3)).toMatchObject({ allowed: false, count: 4 });
      });

      it("sees the other instance's counts, and 0 once the window has ended", async () => {
        const [first, second] = storage.instances;
        await first.check(key, 60, 5);
        await first.check(key, 60, 5);
        expect((await second.peek(key, 60, 5)).count).toBe(2);
        clock.advance(60_000);
        expect(await second.peek(key, 60, 5)).toEqual({ allowed: true, count: 0, retryAfterSeconds: 60 });
        await second.check(key, 60, 5);
        expect((await first.peek(key, 60, 5)).count).toBe(1);
      });

      it('keeps keys apart and reads keys longer than a database column holds', async () => {
        const [limiter] = storage.instances;
        const long = `account:${'b'.repeat(300)}:${key}`;
        await limiter.check(long, 60, 5);
        expect((await limiter.peek(long, 60, 5)).count).toBe(1);
        expect((await limiter.peek(`${long}x`, 60, 5)).count).toBe(0);
        expect((await limiter.peek(key, 60, 5)).count).toBe(0);
      });

      it('beside concurrent checks from two instances, never reads more than was counted, and after them the total', async () => {
        const n = 20;
        const [first, second] = storage.instances;
        const checks = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? first : second).check(key, 60, n));
        const peeks = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? second : first).peek(key, 60, n));
        const [checked, peeked] = await Promise.all([Promise.all(checks), Promise.all(peeks)]);
        expect(checked.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        for (const result of peeked) expect(result.count).toBeGreaterThanOrEqual(0);
        for (const result of peeked) expect(result.count).toBeLessThanOrEqual(n);
        expect(await first.peek(key, 60, n)).toMatchObject({ allowed: false, count: n });
      });
    });

    describe('a request that fails after being counted (e2e)', () => {
      let app: INestApplication;
      let server: Parameters<typeof request>[0];

      const UNIT_OF_WORK = Symbol('unit of work of the failing handler');

      @Controller()
      class FailingRoutes {
        constructor(@Optional() @Inject(UNIT_OF_WORK) private readonly unitOfWork?: UnitOfWork) {}

        @Post('fails-401')
        @RateLimit()
        @HttpCode(200)
        async unauthorized(): Promise<void> {
          await this.failInsideTransaction(new AuthError('INVALID_CREDENTIALS'));
        }

        @Post('fails-500')
        @RateLimit()
        async crashes(): Promise<void> {
          await this.failInsideTransaction(new Error('handler crashed'));
        }

        /** The request's own unit of work writes, then fails and rolls back; the counter must not follow it. */
        private async failInsideTransaction(error: Error): Promise<void> {
          if (!this.unitOfWork) throw error;
          await this.unitOfWork.transaction(async (manager) => {
            await manager.query(`DELETE FROM rate_limit_counters`);
            throw error;
          });
        }
      }

      beforeAll(async () => {
        ({ app, server } = await createLimitedApp({
          storage: storage.instances[0],
          clock,
          rateLimit: { max: 2, windowSeconds: 60 },
          controllers: [FailingRoutes],
          providers: storage.unitOfWork ? [{ provide: UNIT_OF_WORK, useValue: storage.unitOfWork }] : [],
        }));
        server = app.getHttpServer();
      });

      afterAll(async () => {
        await app?.close();
      });

      it.each([
        ['fails-401', 401],
        ['fails-500', 500],
      ])('keeps the count of requests to /%s that answered %i', async (path, status) => {
        clock.advance(60_000 * (status === 401 ? 10 : 20));
        expect((await request(server).post(`/${path}`)).status).toBe(status);
        expect((await request(server).post(`/${path}`)).status).toBe(status);
        const refused = await request(server).post(`/${path}`);
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('RATE_LIMITED');
      });
    });
  });
}

import { afterEach, describe, expect, it } from '@jest/globals';
import { type CanActivate, Controller, type ExecutionContext, Get, type INestApplication, Injectable, UseGuards } from '@nestjs/common';
import request from 'supertest';
import { MemoryRateLimitStorage, RateLimit, SkipRateLimit } from '#svc/auth';
import { createLimitedApp } from '../support/limited-app.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from '../support/window-aligned.js';

/** Stands in for CurrentUserGuard: the user named by a header, on `request.user`. */
@Injectable()
class HeaderUser implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    const id = request.headers['x-user'];
    if (typeof id === 'string') request.user = { id, email: `${id}@x.io` };
    return true;
  }
}

@Controller()
class Routes {
  @Get('strict')
  @RateLimit({ max: 1, windowSeconds: 10 })
  strict() {
    return { ok: true };
  }

  @Get('default')
  @RateLimit()
  byDefault() {
    return { ok: true };
  }

  // Decorators apply bottom up: listed above the user's guard, the limiter runs after it.
  @Get('per-user')
  @RateLimit({ max: 2, by: 'user' })
  @UseGuards(HeaderUser)
  perUser() {
    return { ok: true };
  }
}

@Controller('limited')
@RateLimit({ max: 1 })
class LimitedController {
  @Get('a')
  a() {
    return { ok: true };
  }

  @Get('health')
  @SkipRateLimit()
  health() {
    return { ok: true };
  }
}

/** The @nestjs/throttler habits: per-route limits, a way out, keying by user, the RateLimit-* headers. */
describe('@RateLimit options, @SkipRateLimit and the RateLimit headers', () => {
  const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function start() {
    clock.set(new Date(WINDOW_ALIGNED_EPOCH_MS));
    const created = await createLimitedApp({ storage: new MemoryRateLimitStorage(clock), clock, rateLimit: { max: 3, windowSeconds: 60 }, controllers: [Routes, LimitedController] });
    app = created.app;
    return created.server;
  }

  it('a route may have its own max and window; the others keep the section\'s', async () => {
    const server = await start();
    expect((await request(server).get('/strict')).status).toBe(200);
    const refused = await request(server).get('/strict');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    clock.advance(10_000);
    expect((await request(server).get('/strict')).status).toBe(200);
    for (const expected of [200, 200, 200, 429]) expect((await request(server).get('/default')).status).toBe(expected);
  });

  it('sends RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every limited answer', async () => {
    const server = await start();
    clock.advance(15_000);
    const first = await request(server).get('/default');
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '45' });
    await request(server).get('/default');
    await request(server).get('/default');
    const refused = await request(server).get('/default');
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'retry-after': '45' });
  });

  it("by: 'user' counts each signed-in user on its own, and anonymous requests by address", async () => {
    const server = await start();
    for (const expected of [200, 200, 429]) expect((await request(server).get('/per-user').set('X-User', 'ada')).status).toBe(expected);
    expect((await request(server).get('/per-user').set('X-User', 'bob')).status).toBe(200);
    for (const expected of [200, 200, 429]) expect((await request(server).get('/per-user')).status).toBe(expected);
  });

  it('@SkipRateLimit() leaves one route of a limited controller unlimited', async () => {
    const server = await start();
    for (const expected of [200, 429]) expect((await request(server).get('/limited/a')).status).toBe(expected);
    for (let i = 0; i < 5; i++) {
      const health = await request(server).get('/limited/health');
      expect(health.status).toBe(200);
      expect(health.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('refuses options that are not positive integers when the decorator is applied', () => {
    expect(() => RateLimit({ max: 0 })).toThrow('svc: @RateLimit({ max }) must be a positive integer, got 0');
    expect(() => RateLimit({ windowSeconds: 1.5 })).toThrow('svc: @RateLimit({ windowSeconds }) must be a positive integer, got 1.5');
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, HttpCode, type INestApplication, Post } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestClock } from '../testing/test-clock.js';
import { createLimitedApp, type RateLimitSettings, WINDOW_ALIGNED_EPOCH_MS } from './limited-app.spec-support.js';
import { MemoryRateLimitStorage } from './memory/memory-rate-limit.storage.js';
// The library's own decorator too, to test the built-in behaviour on a small app.
import { AuthRateLimit, RateLimit, RateLimitFor } from './rate-limit.decorators.js';

@Controller()
class Routes {
  @Get('limited')
  @RateLimit()
  limited() {
    return { ok: true };
  }

  @Get('other')
  @RateLimit()
  other() {
    return { ok: true };
  }

  @Get('items/:id')
  @RateLimit()
  item() {
    return { ok: true };
  }

  @Get('unlimited')
  unlimited() {
    return { ok: true };
  }

  @Get('shared-a')
  @RateLimitFor('/shared')
  sharedA() {
    return { ok: true };
  }

  @Post('shared-b')
  @HttpCode(200)
  @RateLimitFor('/shared')
  sharedB() {
    return { ok: true };
  }

  @Post('login')
  @HttpCode(200)
  @AuthRateLimit({ accountFailures: true })
  login(@Body() body: unknown) {
    return body;
  }

  @Post('signup')
  @HttpCode(200)
  @AuthRateLimit()
  signup() {
    return { ok: true };
  }
}

@Controller('whole')
@RateLimit()
class WholeControllerLimited {
  @Get('one')
  one() {
    return { ok: true };
  }

  @Get('two')
  two() {
    return { ok: true };
  }
}

describe('RateLimitGuard (e2e, memory backend)', () => {
  const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
  let app: INestApplication | undefined;
  let storage: MemoryRateLimitStorage;

  async function start(rateLimit: (Partial<RateLimitSettings> & { trustedIpHeader?: string }) | 'not configured' = { max: 3, windowSeconds: 60 }) {
    clock.set(new Date(WINDOW_ALIGNED_EPOCH_MS));
    storage = new MemoryRateLimitStorage(clock);
    const created = await createLimitedApp({ storage, clock, rateLimit: rateLimit === 'not configured' ? undefined : rateLimit, controllers: [Routes, WholeControllerLimited] });
    app = created.app;
    return created.server;
  }

  async function statuses(send: () => request.Test, times: number): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < times; i++) seen.push((await send()).status);
    return seen;
  }

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('refuses beyond max with 429, Retry-After and the RATE_LIMITED body', async () => {
    const server = await start();
    clock.advance(15_000);
    expect(await statuses(() => request(server).get('/limited'), 3)).toEqual([200, 200, 200]);
    const refused = await request(server).get('/limited');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Too many requests', code: 'RATE_LIMITED' });
    expect((await request(server).get('/unlimited')).status).toBe(200);
  });

  it('lets the client in again when the window ends', async () => {
    const server = await start();
    expect(await statuses(() => request(server).get('/limited'), 4)).toEqual([200, 200, 200, 429]);
    clock.advance(60_000);
    expect((await request(server).get('/limited')).status).toBe(200);
  });

  it('@RateLimit() keys by the route path: query string, case, trailing slash and parameters do not open new counters', async () => {
    const server = await start();
    await request(server).get('/limited?a=1').expect(200);
    await request(server).get('/LIMITED/?b=2').expect(200);
    await request(server).get('/limited/').expect(200);
    await request(server).get('/limited?c=3').expect(429);
    expect(await statuses(() => request(server).get('/other'), 4)).toEqual([200, 200, 200, 429]);
    expect([(await request(server).get('/items/1')).status, (await request(server).get('/items/2')).status]).toEqual([200, 200]);
    expect([(await request(server).get('/items/3')).status, (await request(server).get('/items/4')).status]).toEqual([200, 429]);
  });

  it('@RateLimit() on a controller limits each of its routes on its own counter', async () => {
    const server = await start();
    expect(await statuses(() => request(server).get('/whole/one'), 4)).toEqual([200, 200, 200, 429]);
    expect((await request(server).get('/whole/two')).status).toBe(200);
  });

  it('@RateLimitFor(path) counts every route given that path together', async () => {
    const server = await start();
    await request(server).get('/shared-a').expect(200);
    await request(server).post('/shared-b').expect(200);
    await request(server).get('/shared-a').expect(200);
    await request(server).post('/shared-b').expect(429);
    await request(server).get('/shared-a').expect(429);
  });

  it('@RateLimitFor refuses a path that does not start with "/"', () => {
    expect(() => RateLimitFor('shared')).toThrow(TypeError);
  });

  describe('client address', () => {
    it('ignores X-Forwarded-For unless a trusted header is configured', async () => {
      const server = await start();
      const spoofed = (i: number) => request(server).get('/limited').set('X-Forwarded-For', `198.51.100.${i}`);
      expect([(await spoofed(1)).status, (await spoofed(2)).status, (await spoofed(3)).status, (await spoofed(4)).status]).toEqual([200, 200, 200, 429]);
    });

    it('honours the configured header, right-most entry only', async () => {
      const server = await start({ max: 1, trustedIpHeader: 'x-forwarded-for' });
      const via = (header: string) => request(server).get('/limited').set('X-Forwarded-For', header);
      expect((await via('198.51.100.1')).status).toBe(200);
      expect((await via('198.51.100.2')).status).toBe(200);
      expect((await via('198.51.100.1')).status).toBe(429);
      // The client writes the left entries; the proxy appends the right-most one.
      expect((await via('10.9.9.9, 198.51.100.2')).status).toBe(429);
      expect((await via('198.51.100.3, 198.51.100.1')).status).toBe(429);
    });

    it('keys a request without the trusted header by its socket address', async () => {
      const server = await start({ max: 1, trustedIpHeader: 'x-forwarded-for' });
      await request(server).get('/limited').expect(200);
      await request(server).get('/limited').expect(429);
      await request(server).get('/limited').set('X-Forwarded-For', '127.0.0.2').expect(200);
    });

    it('refuses a request whose trusted header holds no address', async () => {
      const server = await start({ max: 5, trustedIpHeader: 'x-real-ip' });
      for (const bad of ['unknown', '', '198.51.100.1:4444']) {
        const refused = await request(server).get('/limited').set('X-Real-IP', bad);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: 'Client address could not be determined' });
        expect(refused.headers['retry-after']).toBe('60');
      }
    });

    it('keys IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', async () => {
      const server = await start({ max: 2, trustedIpHeader: 'x-forwarded-for' });
      const via = (address: string) => request(server).get('/limited').set('X-Forwarded-For', address);
      expect((await via('2001:db8:1:2::1')).status).toBe(200);
      expect((await via('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).status).toBe(200);
      expect((await via('2001:0db8:0001:0002::ffff')).status).toBe(429);
      expect((await via('2001:db8:1:3::1')).status).toBe(200);
      expect((await via('203.0.113.5')).status).toBe(200);
      expect((await via('::ffff:203.0.113.5')).status).toBe(200);
      expect((await via('::ffff:cb00:7105')).status).toBe(429);
    });

    it('counts clients connected over IPv6 and, on a dual-stack socket, over IPv4', async () => {
      await start({ max: 1 });
      await app!.listen(0, '::');
      const { port } = app!.getHttpServer().address() as AddressInfo;
      await request(`http://[::1]:${port}`).get('/limited').expect(200);
      await request(`http://[::1]:${port}`).get('/limited').expect(429);
      // 127.0.0.1 arrives as ::ffff:127.0.0.1 and is another client.
      await request(`http://127.0.0.1:${port}`).get('/limited').expect(200);
      await request(`http://127.0.0.1:${port}`).get('/limited').expect(429);
    });
  });

  // docs/guides/rate-limiting.md: login counts failed attempts per account (test/rate-limit/login-failures), never its successes.
  describe('login (accountFailures)', () => {
    it('lets logins of one account that do not fail through from any number of addresses', async () => {
      const server = await start({ max: 3, trustedIpHeader: 'x-forwarded-for' });
      const login = (ip: string, email: string) => request(server).post('/login').set('X-Forwarded-For', ip).send({ email, password: 'x' });
      for (const n of [1, 2, 3, 4, 5]) expect((await login(`198.51.100.${n}`, n % 2 === 0 ? ' Alice@Example.COM' : 'alice@example.com')).status).toBe(200);
    });

    it('still counts the client address, and a body without an email by address only', async () => {
      const server = await start({ max: 2 });
      expect((await request(server).post('/login').send({ email: 'a@example.com' })).status).toBe(200);
      expect((await request(server).post('/login').send({ email: 'b@example.com' })).status).toBe(200);
      expect((await request(server).post('/login').send({ email: 'c@example.com' })).status).toBe(429);
      expect((await request(server).post('/login').send({})).status).toBe(429);
    });
  });

  describe('without a rateLimit section', () => {
    it('leaves the library endpoints unlimited', async () => {
      const server = await start('not configured');
      expect(await statuses(() => request(server).post('/signup'), 20)).toEqual(new Array(20).fill(200));
      expect(await statuses(() => request(server).post('/login').send({ email: 'a@example.com' }), 20)).toEqual(new Array(20).fill(200));
    });

    it('fails closed on a route the application asked to limit', async () => {
      const server = await start('not configured');
      expect((await request(server).get('/limited')).status).toBe(500);
      expect((await request(server).get('/unlimited')).status).toBe(200);
    });
  });
});

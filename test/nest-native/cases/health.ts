import { afterEach, describe, expect, it } from '@jest/globals';
import { TerminusModule } from '@nestjs/terminus';
import { Redis } from 'ioredis';
import request from 'supertest';
import { AuthHealthIndicator } from '#svc/auth/health';
import { canUseRedis, REDIS_URL } from '../../rate-limit/support/redis.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { HealthController } from '../../support/health-controller.js';

const REDIS_REACHABLE = await canUseRedis();

/** `AuthHealthIndicator` for @nestjs/terminus: the database, and Redis when the limiter uses it. */
describe('AuthHealthIndicator', () => {
  let t: TestApp | undefined;
  const clients: Redis[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const client of clients.splice(0)) client.disconnect();
  });

  const start = (rateLimit?: object) => createTestApp({ engine: 'sqlite', imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [AuthHealthIndicator], options: { secret: TEST_SECRET, rateLimit } as never });
  const redisOn = (url: string) => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    client.on('error', () => undefined);
    clients.push(client);
    return client;
  };

  it('is up while the database answers, and down (503) once it does not', async () => {
    t = await start();
    const up = await request(t.server).get('/health');
    expect(up.status).toBe(200);
    expect(up.body.details).toEqual({ svc: { status: 'up', database: 'up' } });
    await t.dataSource.destroy();
    const down = await request(t.server).get('/health');
    expect(down.status).toBe(503);
    expect(down.body.details).toEqual({ svc: { status: 'down', database: 'down' } });
  });

  it.each([
    ...(REDIS_REACHABLE ? [['a Redis that answers', REDIS_URL, 200, 'up'] as const] : []),
    ['a Redis on a closed port', 'redis://127.0.0.1:1', 503, 'down'] as const,
  ])('asks the Redis limiter: %s', async (_case, url, status, redis) => {
    const client = redisOn(url);
    if (status === 200) await client.connect();
    t = await start({ backend: 'redis', redis: client });
    const response = await request(t.server).get('/health');
    expect(response.status).toBe(status);
    expect(response.body.details.svc).toEqual({ status: status === 200 ? 'up' : 'down', database: 'up', redis });
  });
});

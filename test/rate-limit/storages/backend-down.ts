import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Get, type INestApplication, Logger } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { authMigrations, RateLimit, type RateLimitStorage, RedisRateLimitStorage, TypeOrmRateLimitStorage, UnitOfWork } from '#svc/auth';
import { canUsePostgres, freshDatabase } from '../../support/engines.js';
import { createLimitedApp } from '../support/limited-app.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from '../support/window-aligned.js';
import { canUseRedis, stoppableRedisRelay, unreachableRedisClient } from '../support/redis.js';
import { Redis } from 'ioredis';

@Controller()
class Routes {
  @Get('limited')
  @RateLimit()
  limited() {
    return { ok: true };
  }
}

interface DownBackend {
  name: string;
  storage: () => Promise<RateLimitStorage>;
  cleanup?: () => Promise<void>;
}

const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));

/** A database backend whose DataSource was destroyed after the schema was made. */
function destroyedDatabase(engine: 'sqlite' | 'postgres'): DownBackend {
  let drop: () => Promise<void> = async () => undefined;
  return {
    name: `database on ${engine}, DataSource destroyed`,
    storage: async () => {
      const database = await freshDatabase(engine);
      drop = database.drop;
      const dataSource = await new DataSource({ ...database.options, migrations: authMigrations, migrationsRun: true } as never).initialize();
      const storage = new TypeOrmRateLimitStorage(new UnitOfWork(dataSource), clock);
      await dataSource.destroy();
      return storage;
    },
    cleanup: () => drop(),
  };
}

/** Redis stopped under a connected client with ioredis' default options (it queues and retries: the guard's timeout answers). */
function stoppedRedis(): DownBackend {
  let client: Redis | undefined;
  return {
    name: 'Redis stopped under a connected client (default ioredis options)',
    storage: async () => {
      const relay = await stoppableRedisRelay();
      client = new Redis({ host: '127.0.0.1', port: relay.port });
      client.on('error', () => undefined);
      const storage = new RedisRateLimitStorage(client, clock, `svc-test-down:${relay.port}:`);
      await storage.check('warm-up', 60, 5);
      await relay.stop();
      return storage;
    },
    cleanup: async () => client?.disconnect(),
  };
}

const backends: DownBackend[] = [
  { name: 'Redis on a closed port', storage: async () => new RedisRateLimitStorage(unreachableRedisClient(), clock) },
  ...((await canUseRedis()) ? [stoppedRedis()] : []),
  destroyedDatabase('sqlite'),
  ...((await canUsePostgres()) ? [destroyedDatabase('postgres')] : []),
  { name: 'a backend that never answers', storage: async () => ({ check: () => new Promise<never>(() => undefined), peek: () => new Promise<never>(() => undefined) }) },
];

describe.each(backends)('rateLimit.onBackendError with $name', (backend) => {
  let storage: RateLimitStorage;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    storage = await backend.storage();
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await backend.cleanup?.();
  });

  async function start(onBackendError: 'deny' | 'allow') {
    ({ app } = await createLimitedApp({ storage, clock, rateLimit: { max: 5, onBackendError }, controllers: [Routes] }));
    return app.getHttpServer();
  }

  it("'deny' (the default) refuses with 503 SERVICE_UNAVAILABLE and logs an error", async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const response = await request(await start('deny')).get('/limited');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' });
    expect(error.mock.calls.map((call) => String(call[0])).some((line) => line.includes("rate-limit backend unavailable, request refused (rateLimit.onBackendError = 'deny')"))).toBe(true);
  });

  it("'allow' lets the request through and logs a warning to 'svc'", async () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(function (this: Logger, message: unknown) {
      warnings.push(`${(this as unknown as { context?: string }).context}: ${String(message)}`);
    });
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const response = await request(await start('allow')).get('/limited');
    expect(response.status).toBe(200);
    expect(warnings.some((line) => line.startsWith("svc: rate-limit backend unavailable, request let through (rateLimit.onBackendError = 'allow')"))).toBe(true);
  });
});

describe('rateLimit.onBackendError reports while the backend stays down', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it.each(['allow', 'deny'] as const)("'%s': at most one line a minute, with the count of requests since the last", async (onBackendError) => {
    const lines: string[] = [];
    for (const level of ['warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((message: unknown) => void lines.push(String(message)));
    }
    const storage = new RedisRateLimitStorage(unreachableRedisClient(), clock);
    const { app } = await createLimitedApp({ storage, clock, rateLimit: { max: 5, onBackendError }, controllers: [Routes] });
    try {
      const expected = onBackendError === 'allow' ? 200 : 503;
      for (let i = 0; i < 20; i++) expect((await request(app.getHttpServer()).get('/limited')).status).toBe(expected);
      expect(lines).toHaveLength(1);
      clock.advance(60_000);
      expect((await request(app.getHttpServer()).get('/limited')).status).toBe(expected);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain('20 requests since the last report');
    } finally {
      await app.close();
    }
  });
});

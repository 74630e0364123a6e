import { EventEmitterModule } from '@nestjs/event-emitter';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';
import { AuthModule, authEntities, authMigrations, RateLimit, RateLimitFor } from '#svc/auth';

@Controller('api')
class ApplicationRoutes {
  @Get('search')
  @RateLimit()
  search() {
    return { results: [] };
  }

  @Get('export')
  @RateLimitFor('/api/expensive')
  export() {
    return { ok: true };
  }

  @Get('report')
  @RateLimitFor('/api/expensive')
  report() {
    return { ok: true };
  }
}

// What a user does: import AuthModule with a rateLimit section and decorate their own routes.
describe('@RateLimit() and @RateLimitFor() on application routes, with AuthModule', () => {
  let app: INestApplication;

  beforeAll(async () => {
    @Module({
      imports: [
        EventEmitterModule.forRoot(),
        TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: authEntities(), migrations: authMigrations, migrationsRun: true }),
        AuthModule.forRoot({ strategy: 'session', baseUrl: 'http://app.test', password: { sendsResetMail: false }, rateLimit: { max: 2, windowSeconds: 3600 } }), // real clock: a long window is never crossed mid-test
      ],
      controllers: [ApplicationRoutes],
    })
    class ApplicationModule {}

    const moduleRef = await Test.createTestingModule({ imports: [ApplicationModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('limits them with the configured backend', async () => {
    const server = app.getHttpServer();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(server).get('/api/search?q=' + i)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect([(await request(server).get('/api/export')).status, (await request(server).get('/api/report')).status]).toEqual([200, 200]);
    const refused = await request(server).get('/api/export');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

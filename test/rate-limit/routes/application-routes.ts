import { EventEmitterModule } from '@nestjs/event-emitter';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Agent, get } from 'node:http';
import request from 'supertest';
import { AuthModule, authEntities, authMigrations, RateLimit, RateLimitFor } from '#svc/auth';
import { listenOnLoopback } from '../../support/listen.js';

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

  it('counts each keep-alive connection under its own address, request after request', async () => {
    // The guard works a connection's key out once (docs/guides/rate-limiting.md): two connections, each
    // kept open from its own loopback address, take turns; each gets its own two requests.
    const baseUrl = await listenOnLoopback(app.getHttpServer());
    const agents = ['127.0.0.2', '127.0.0.3'].map((localAddress) => new Agent({ keepAlive: true, maxSockets: 1, localAddress }));
    const search = (agent: Agent) =>
      new Promise<{ status: number; remaining: unknown; connection: string }>((resolve, reject) => {
        get(`${baseUrl}/api/search`, { agent }, (response) => {
          const connection = `${response.socket.localAddress}:${response.socket.localPort}`;
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, remaining: response.headers['ratelimit-remaining'], connection }));
        }).on('error', reject);
      });
    try {
      const answers = [];
      for (let turn = 0; turn < 3; turn++) for (const agent of agents) answers.push(await search(agent));
      expect(answers.map(({ status, remaining }) => [status, remaining])).toEqual([
        [200, '1'],
        [200, '1'],
        [200, '0'],
        [200, '0'],
        [429, '0'],
        [429, '0'],
      ]);
      // Each address kept its one connection throughout.
      expect(new Set(answers.map(({ connection }) => connection)).size).toBe(2);
    } finally {
      for (const agent of agents) agent.destroy();
    }
  });
});

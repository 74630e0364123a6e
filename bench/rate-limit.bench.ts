// Requests per second of a rate-limited route next to an unlimited one, for each rate-limit
// backend, in one run (a Nest app in this process on loopback, autocannon in a worker thread, max
// high enough that nothing is refused). Each figure is the median of the per-round ratios of interleaved rounds.
// Figures: ratelimit-memory (>= 0.95), ratelimit-redis (>= 0.85), ratelimit-postgres (>= 0.6),
// ratelimit-sqlite (>= 0.6; a SQLite file in WAL with synchronous = NORMAL, as the README advises
// and the demo runs), ratelimit-sqlite-rollback-journal (report only: a file as TypeORM opens it,
// every commit waiting for fsync), guard-floor (report only: a route behind a Nest guard that does
// nothing, in the memory backend's rounds: what any guard costs before the limiter's own work).
// Run: node --conditions=source --import ./bench/ts-register.mjs bench/rate-limit.bench.ts
import 'reflect-metadata';
import { type CanActivate, Controller, Get, type INestApplication, Injectable, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AUTH_CLOCK, AUTH_CONFIG } from '../libs/auth/src/config/auth.constants.js';
import { systemClock } from '../libs/auth/src/config/clock.js';
import type { AuthConfig } from '../libs/auth/src/config/auth-config.js';
import { authMigrations } from '../libs/auth/src/migrations/index.js';
import { UnitOfWork } from '../libs/auth/src/persistence/unit-of-work.js';
import { createRateLimitStorage, RateLimit, RateLimitStorage } from '../libs/auth/src/rate-limit/index.js';
import { type Figure, figureOf, publish, type Target } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { ClosedLoopClient } from './support/closed-loop-client.js';
import { setting } from './support/settings.js';

/**
 * Each route is measured in ROUNDS interleaved slices, so load from elsewhere on the machine hits
 * both alike. Nine by default: a slice is short and one round's ratio swings by a tenth either
 * way on a shared two-core machine, so the median needs more of them than the other figures.
 */
const ROUNDS = Math.max(3, Math.round(setting('BENCH_RATE_LIMIT_ROUNDS', 9)));
const SLICE_SECONDS = setting('BENCH_RATE_LIMIT_SECONDS', 1.2);
const CONNECTIONS = 10;
const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/test';

/** A guard that lets everything through: what Nest's guard step costs before any limiter work. */
@Injectable()
class PassGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Controller()
class BenchRoutes {
  @Get('unlimited')
  unlimited() {
    return { ok: true };
  }

  @Get('guarded')
  @UseGuards(PassGuard)
  guarded() {
    return { ok: true };
  }

  @Get('limited')
  @RateLimit()
  limited() {
    return { ok: true };
  }
}

interface Backend {
  name: string;
  figure: string;
  target: Target;
  backend: 'memory' | 'database' | 'redis';
  /** Opens what the backend needs; null when its service is unreachable. */
  open(): Promise<{ unitOfWork?: UnitOfWork; redis?: Redis; close(): Promise<void> } | null>;
}

const backends: Backend[] = [
  { name: 'memory', figure: 'ratelimit-memory', target: { atLeast: 0.95 }, backend: 'memory', open: async () => ({ close: async () => undefined }) },
  // WAL with synchronous=NORMAL: a commit no longer waits for fsync (an application-wide choice).
  sqliteFile('database (SQLite file, WAL)', 'ratelimit-sqlite', { atLeast: 0.6 }, { enableWAL: true, prepareDatabase: (db: { pragma(sql: string): unknown }) => db.pragma('synchronous = NORMAL') }),
  sqliteFile('database (SQLite file, rollback journal)', 'ratelimit-sqlite-rollback-journal', 'report only', {}),
  {
    name: 'database (PostgreSQL)',
    figure: 'ratelimit-postgres',
    target: { atLeast: 0.6 },
    backend: 'database',
    open: async () => {
      const name = `svc_bench_${randomBytes(4).toString('hex')}`;
      if (!(await adminQuery(`CREATE DATABASE ${name}`))) return null;
      const dataSource = await initialize({ type: 'postgres', url: `postgres://postgres@127.0.0.1:5432/${name}`, poolSize: CONNECTIONS });
      return {
        unitOfWork: new UnitOfWork(dataSource),
        close: async () => {
          await dataSource.destroy();
          await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        },
      };
    },
  },
  {
    name: 'redis',
    figure: 'ratelimit-redis',
    target: { atLeast: 0.85 },
    backend: 'redis',
    open: async () => {
      const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
      } catch {
        redis.disconnect();
        return null;
      }
      return { redis, close: async () => redis.disconnect() };
    },
  },
];

function sqliteFile(name: string, figure: string, target: Target, options: Record<string, unknown>): Backend {
  return {
    name,
    figure,
    target,
    backend: 'database',
    open: async () => {
      const file = join(tmpdir(), `svc-bench-${randomBytes(4).toString('hex')}.sqlite`);
      const dataSource = await initialize({ type: 'better-sqlite3', database: file, ...options } as DataSourceOptions);
      return {
        unitOfWork: new UnitOfWork(dataSource),
        close: async () => {
          await dataSource.destroy();
          for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
        },
      };
    },
  };
}

async function main(): Promise<void> {
  console.log(`rate-limit bench: ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SLICE_SECONDS} s per route, GET on 127.0.0.1, one client address (worst case: one hot counter)`);
  const figures: Figure[] = [];
  const load = new ClosedLoopClient();
  // BENCH_RATE_LIMIT_ONLY=ratelimit-postgres,ratelimit-redis measures some backends only.
  const only = process.env.BENCH_RATE_LIMIT_ONLY?.split(',').map((figure) => figure.trim());
  for (const backend of backends.filter((candidate) => !only || only.includes(candidate.figure))) {
    const resources = await backend.open();
    if (!resources) {
      console.log(`!!! ${backend.name}: service unreachable, SKIPPED`);
      continue;
    }
    const app = await startApp(backend, resources);
    try {
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      const unlimited = { url: `${url}/unlimited`, connections: CONNECTIONS };
      const limited = { url: `${url}/limited`, connections: CONNECTIONS };
      // warm-up: JIT, connection pools, the script cache
      await load.throughput(unlimited, 2);
      await load.throughput(limited, 2);
      const contenders: Record<string, () => Promise<number>> = { limited: () => load.throughput(limited, SLICE_SECONDS), unlimited: () => load.throughput(unlimited, SLICE_SECONDS) };
      // With the memory backend, the floor beside it: a route behind a guard that does nothing.
      if (backend.backend === 'memory') contenders.guarded = () => load.throughput({ url: `${url}/guarded`, connections: CONNECTIONS }, SLICE_SECONDS);
      const rounds = await interleavedRounds(contenders, ROUNDS);
      const unlimitedMeasure = { label: 'unlimited', unit: 'req/s', rounds: rounds.unlimited };
      figures.push(figureOf(backend.figure, backend.target, { label: `limited, ${backend.name}`, unit: 'req/s', rounds: rounds.limited }, unlimitedMeasure));
      if (rounds.guarded) {
        figures.push(figureOf('guard-floor', 'report only', { label: 'a guard that lets everything through', unit: 'req/s', rounds: rounds.guarded }, unlimitedMeasure));
      }
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 250)); // let requests still in flight finish
      await app.close();
      await resources.close();
    }
  }
  await load.close();
  publish(figures);
}

async function startApp(backend: Backend, resources: { unitOfWork?: UnitOfWork; redis?: Redis }): Promise<INestApplication> {
  const config = {
    rateLimit: { windowSeconds: 3600, max: 1_000_000, backend: backend.backend, onBackendError: 'deny', redis: resources.redis },
  } as unknown as AuthConfig;
  const storage = createRateLimitStorage(config, systemClock, resources.unitOfWork as UnitOfWork);
  const moduleClass = class BenchModule {};
  const { Module } = await import('@nestjs/common');
  Module({
    controllers: [BenchRoutes],
    providers: [
      { provide: AUTH_CONFIG, useValue: config },
      { provide: AUTH_CLOCK, useValue: systemClock },
      { provide: RateLimitStorage, useValue: storage },
    ],
  })(moduleClass);
  const app = await NestFactory.create(moduleClass, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  return app;
}

async function initialize(options: DataSourceOptions): Promise<DataSource> {
  return new DataSource({ ...options, migrations: authMigrations, migrationsRun: true, logging: false } as DataSourceOptions).initialize();
}

async function adminQuery(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query(sql);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

await main();

import { Controller, type DynamicModule, Get, type INestApplication, Injectable, type LoggerService, Module, type Provider, type Type, UseGuards } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import {
  AUTH_CLOCK,
  AuthModule,
  authEntities,
  authMigrations,
  type AuthEventName,
  type AuthHooks,
  type AuthOptions,
  type AuthStrategy,
  type Clock,
  CurrentUser,
  CurrentUserGuard,
  type SvcUser,
  type UserBody,
} from '#svc/auth';
import { lowCostPasswordHasher } from '#svc/auth/testing';
import { AfterResponse } from '../../libs/auth/src/events/after-response.js';
import { DemoUser } from '../../apps/demo/src/users/demo-user.entity.js';
import { DemoUserColumns1763700000001 } from '../../apps/demo/src/migrations/1763700000001-demo-user-columns.js';
import { emptyTables } from './database-rows.js';
import { type Engine, freshDatabase } from './engines.js';

type FreshDatabase = Awaited<ReturnType<typeof freshDatabase>>;

export const TEST_SECRET = 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa';
export const BASE_URL = 'http://app.test';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-21T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
}

@Controller()
class ApplicationRoutes {
  @Get('profile')
  @UseGuards(CurrentUserGuard)
  profile(@CurrentUser() user: UserBody): UserBody {
    return user;
  }

  @Get('public')
  open(): { ok: true } {
    return { ok: true };
  }
}

/** Everything the library emits, in order, once delivered. */
@Injectable()
export class EventLog {
  readonly received: { name: string; payload: Record<string, unknown> }[] = [];
  private waiters: (() => void)[] = [];

  constructor(emitter: EventEmitter2) {
    emitter.onAny((name: string | string[], payload: Record<string, unknown>) => {
      this.received.push({ name: String(name), payload });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  named(name: AuthEventName) {
    return this.received.filter((event) => event.name === name).map((event) => event.payload);
  }

  /** Resolves when `name` has been delivered `count` times (observers run after the response). */
  async waitFor(name: AuthEventName, count = 1): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + 5000;
    while (this.named(name).length < count) {
      if (Date.now() > deadline) throw new Error(`event ${name} not delivered ${count} time(s)`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.named(name);
  }
}

export interface TestAppOptions {
  engine: Engine;
  strategy?: AuthStrategy;
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  userEntity?: Type<SvcUser>;
  providers?: Provider[];
  clock?: TestClock;
  /** Receives the application's log lines (default: none). */
  logger?: LoggerService;
  /** Further controllers of the application. */
  controllers?: Type[];
  /** Further modules the application imports. */
  imports?: DynamicModule[];
  /** AuthModule's `globalGuard` extra. */
  globalGuard?: boolean;
  /** Providers replaced for the test (e.g. a gated password hasher that pauses a request); they win over `passwordHasher`. */
  overrides?: { provide: unknown; useClass: Type }[];
  /** `'low-cost'` (default) hashes at the configured bcrypt cost minus 6, as svc/testing does; `'configured'` at the configured cost. */
  passwordHasher?: 'low-cost' | 'configured';
  /** The database to use instead of a fresh one of `engine` (e.g. reached through a relay); dropped at close. */
  database?: FreshDatabase;
  /** Called on the application before it initialises (`app.setGlobalPrefix(...)`, say). */
  configure?: (app: INestApplication) => void;
}

export interface TestApp {
  app: INestApplication;
  /** Resolves once everything scheduled after the responses so far (observers, forgot-password work) has run. */
  afterResponses(): Promise<void>;
  server: Server;
  dataSource: DataSource;
  events: EventLog;
  clock: TestClock;
  /**
   * Makes the app what it was when created, for the next test of a file that shares one app: the
   * work after responses finished, every table emptied (`emptyTables`), no events, the clock at
   * its start. The memory rate limiter's counters stay: a suite counting requests against it
   * starts its own app.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A Nest application using AuthModule as an application would, on a fresh database. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const userEntity = options.userEntity ?? DemoUser;
  const usesDemoColumns = userEntity === DemoUser;
  const migrations = usesDemoColumns ? [...authMigrations, DemoUserColumns1763700000001] : authMigrations;
  const database = options.database ?? (await freshDatabase(options.engine, migrations));
  const clock = options.clock ?? new TestClock();
  const start = clock.now();
  // Options that name a credential use the sets shape (README, "Options reference"); else the strategy shorthand.
  const strategy = (options.options as { credential?: unknown } | undefined)?.credential === undefined ? (options.strategy ?? 'session') : undefined;

  @Module({
    imports: [
      EventEmitterModule.forRoot({ wildcard: false }),
      TypeOrmModule.forRoot({
        ...database.options,
        entities: authEntities(userEntity),
        migrations,
        migrationsRun: true,
        logging: false,
      } as never),
      ...(options.imports ?? []),
      AuthModule.forRoot({
        strategy,
        entities: { user: userEntity },
        hooks: options.hooks,
        globalGuard: options.globalGuard,
        baseUrl: BASE_URL,
        // The password section exists only where a password login does (README, "Options reference").
        ...(strategy === 'session' || strategy === 'jwt' ? { password: { bcryptCost: 10 } } : {}),
        ...options.options,
      } as never),
    ],
    controllers: [ApplicationRoutes, ...(options.controllers ?? [])],
    providers: [EventLog, ...(options.providers ?? [])],
  })
  class TestModule {}

  let builder = Test.createTestingModule({ imports: [TestModule] }).overrideProvider(AUTH_CLOCK).useValue(clock);
  if ((options.passwordHasher ?? 'low-cost') === 'low-cost') builder = builder.overrideProvider(lowCostPasswordHasher.provide).useClass(lowCostPasswordHasher.useClass);
  for (const override of options.overrides ?? []) builder = builder.overrideProvider(override.provide).useClass(override.useClass);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ logger: options.logger ?? false });
  options.configure?.(app);
  try {
    await app.init();
  } catch (error) {
    // What started before the failure (the password threads, the pool) ends here: else it keeps the test process alive.
    await app.close().catch(() => undefined);
    await database.drop();
    throw error;
  }
  return {
    app,
    server: app.getHttpServer() as Server,
    dataSource: app.get(DataSource),
    events: app.get(EventLog),
    afterResponses: () => app.get(AfterResponse).drain(),
    clock,
    reset: async () => {
      await app.get(AfterResponse).drain();
      await emptyTables(app.get(DataSource));
      app.get(EventLog).received.length = 0;
      clock.set(start);
    },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** The `Set-Cookie` header of a response, parsed by cookie name. */
export function cookiesOf(response: { headers: Record<string, unknown> }): Record<string, { value: string; attributes: string[] }> {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  const cookies: Record<string, { value: string; attributes: string[] }> = {};
  for (const line of lines) {
    const [pair, ...attributes] = line.split(';').map((part: string) => part.trim());
    const index = pair.indexOf('=');
    cookies[pair.slice(0, index)] = { value: decodeURIComponent(pair.slice(index + 1)), attributes };
  }
  return cookies;
}

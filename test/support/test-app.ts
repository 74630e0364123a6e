import { Controller, type DynamicModule, Get, type INestApplication, Injectable, type LoggerService, type Provider, type Type, UseGuards } from '@nestjs/common';
import type { Server } from 'node:http';
import type { DataSource } from 'typeorm';
import { AuthEvent, type AuthHooks, type AuthOptions, type AuthStrategy, authMigrations, CurrentUser, CurrentUserGuard, OnAuthEvent, type SvcUser, type UserBody } from '#svc/auth';
import { type AuthEventRecorder, createAuthTestApp, TestClock as KitTestClock, type TestProviderOverride } from '#svc/auth/testing';
import { SuiteUser } from './users/suite-user.entity.js';
import { SuiteUserColumns1763700000001 } from './migrations/1763700000001-suite-user-columns.js';
import { type Engine, freshDatabase } from './engines.js';
import { pooledDatabase } from './postgres-pool.js';

type FreshDatabase = Awaited<ReturnType<typeof freshDatabase>>;

export const TEST_SECRET = 'q8Vz3kR1xN7pL2mW9tY4bH6cJ0fG5dSa';
export const BASE_URL = 'http://app.test';

/** Where the suites' clocks start unless a test says otherwise: a fixed instant, so that runs compare. */
export const SUITE_START = new Date('2026-11-21T10:00:00.000Z');

/** svc/testing's clock, starting at `SUITE_START` unless told otherwise. */
export class TestClock extends KitTestClock {
  constructor(start: Date = SUITE_START) {
    super(start);
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

/**
 * The suites' mailer: svc does not start without an observer of each mail it asks for (docs/guides/application.md), in tests as in production; the suites read the mails from the event recorder.
 */
@Injectable()
class SuiteMailbox {
  @OnAuthEvent(AuthEvent.PasswordResetRequested)
  resetLink(): void {}

  @OnAuthEvent(AuthEvent.EmailVerificationRequested)
  verificationLink(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeRequested)
  confirmationLink(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeNotice)
  changeNotice(): void {}
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
  overrides?: TestProviderOverride[];
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
  events: AuthEventRecorder;
  clock: TestClock;
  /** svc/testing's `reset()`: a shared app made what it was when created, for the next test of a file. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * svc/testing's `createAuthTestApp` on an empty database of `engine` (the kit's new in-memory SQLite, or a
 * PostgreSQL database of the pool, `pooledDatabase`), with the suite's user entity and columns (`SuiteUser`), the base URL
 * `BASE_URL`, Secure cookies as in production, a mailer for every mail svc asks for, and two routes of the
 * application's own (`GET /profile` behind `CurrentUserGuard`, `GET /public`).
 */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const user = options.userEntity ?? SuiteUser;
  const applicationMigrations = user === SuiteUser ? [SuiteUserColumns1763700000001] : [];
  const migrations = [...authMigrations, ...applicationMigrations];
  // PostgreSQL: a database of the pool (the app changes no schema); SQLite: the kit's new in-memory one.
  const database = options.database ?? (options.engine === 'postgres' ? await pooledDatabase(migrations) : undefined);
  const clock = options.clock ?? new TestClock();
  // Options that name a credential use the sets shape (docs/reference/options.md); else the strategy shorthand.
  const credential = (options.options as { credential?: 'session' | 'jwt' } | undefined)?.credential;
  try {
    const t = await createAuthTestApp({
      ...(credential === undefined ? { strategy: options.strategy ?? 'session' } : { credential }),
      user,
      migrations: applicationMigrations,
      database: database && ({ ...database.options, logging: false } as never),
      options: { baseUrl: BASE_URL, cookie: {}, ...options.options },
      hooks: options.hooks,
      globalGuard: options.globalGuard,
      imports: options.imports,
      controllers: [ApplicationRoutes, ...(options.controllers ?? [])],
      providers: [SuiteMailbox, ...(options.providers ?? [])],
      clock,
      passwordHasher: options.passwordHasher,
      logger: options.logger,
      overrides: options.overrides,
      configure: options.configure,
    });
    return {
      ...t,
      clock,
      afterResponses: () => t.events.settled(),
      close: async () => {
        await t.close();
        await database?.drop();
      },
    };
  } catch (error) {
    await database?.drop();
    throw error;
  }
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

/** The cookies a response sets, by name: their values only. */
export function setCookiesOf(response: { headers: Record<string, unknown> }): Record<string, string> {
  return Object.fromEntries(Object.entries(cookiesOf(response)).map(([name, cookie]) => [name, cookie.value]));
}

/** The claims of a jwt access token (not verified: the application under test issued it). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

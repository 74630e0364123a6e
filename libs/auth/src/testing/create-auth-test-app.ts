import { type DynamicModule, type INestApplication, type LoggerService, type LogLevel, Module, type Provider, type Type } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AUTH_CLOCK } from '../config/auth.constants.js';
import { AuthModule } from '../auth.module.js';
import type { AuthModuleExtras } from '../auth.module-definition.js';
import type { AuthOptions } from '../config/auth-options.js';
import { authEntities } from '../auth.entities.js';
import type { SvcUser } from '../entities/user.entity.js';
import type { AuthHooks } from '../hooks/auth-hooks.js';
import { authMigrations } from '../migrations/index.js';
import { AuthEventRecorder } from './auth-event-recorder.js';
import { emptyTables } from './empty-tables.js';
import { lowCostPasswordHasher } from './low-cost-password-hasher.js';
import { signIn, type SignedInUser, type SignInOptions } from './sign-in.js';
import { TestClock } from './test-clock.js';

/** `Omit` over each member of a union: a plain `Omit` of a union keeps only the keys every member shares. */
type OmitFromEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * How the test app reaches its database: TypeORM's connection options of one driver
 * (`{ type: 'postgres', url }`, say), less what the kit sets (entities, migrations).
 */
export type TestDatabaseOptions = OmitFromEach<DataSourceOptions, 'entities' | 'migrations' | 'migrationsRun' | 'synchronize' | 'subscribers'>;

/** A provider replaced for the test, as Nest's `overrideProvider(...)` would (a gated or counting service, say). */
export type TestProviderOverride = { provide: unknown; useClass: Type } | { provide: unknown; useValue: unknown };

export interface AuthTestAppOptions {
  /** The credential a login issues, as in `forRoot`. @default 'session' */
  credential?: AuthModuleExtras['credential'];
  /** The seed's shorthand instead of `credential` (docs/reference/options.md). */
  strategy?: AuthModuleExtras['strategy'];
  /** The application's user entity. @default the library's `User` */
  user?: Type<SvcUser>;
  /**
   * The application's other entities (a `Note`, a `Project`): registered with the database, and
   * their repositories injectable (`@InjectRepository(Note)`) in `controllers` and `providers`,
   * as the user entity's is (`@InjectRepository(AppUser)`).
   */
  entities?: Function[];
  /**
   * The database, as TypeORM connection options: your PostgreSQL test database, say (empty or
   * already migrated). @default a new in-memory SQLite database (better-sqlite3)
   */
  database?: TestDatabaseOptions;
  /** The application's migrations after the library's (its user columns), or `synchronize: true` instead. */
  migrations?: (string | Function)[];
  synchronize?: boolean;
  /**
   * AuthModule options over the test defaults (bcrypt cost 10, hashed at low cost: see `passwordHasher`;
   * a random jwt secret, non-Secure cookies); the `password` section is merged over the default cost.
   * As in the application, a mail svc asks for needs its observer among `providers` (the recorder
   * does not count), or the option that says the application sends none: `password.sendsResetMail: false`,
   * `emailVerification.sendsMail: false` (docs/guides/application.md).
   */
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  globalGuard?: boolean;
  imports?: (Type | DynamicModule)[];
  controllers?: Type[];
  providers?: Provider[];
  /** @default a TestClock at the current time */
  clock?: TestClock;
  /**
   * `'low-cost'` hashes passwords at the configured bcrypt cost minus 6 (`LowCostPasswordHasher`);
   * `'configured'` at the configured cost, as in production. @default 'low-cost'
   */
  passwordHasher?: 'low-cost' | 'configured';
  /**
   * Nest's logger for the app: `false` (the default) keeps the test output quiet; give a logger,
   * or levels such as `['error', 'warn']`, to see why a request answered 500.
   */
  logger?: LoggerService | LogLevel[] | false;
  /** Providers replaced for the test; they win over `passwordHasher`. */
  overrides?: TestProviderOverride[];
  /** Called with the application before it initialises (`app.setGlobalPrefix(...)`, say). */
  configure?: (app: INestApplication) => void;
}

export interface AuthTestApp {
  app: INestApplication;
  /** For supertest: `request(t.server)`. */
  server: Server;
  clock: TestClock;
  events: AuthEventRecorder;
  dataSource: DataSource;
  /** Signs a user in without a password round trip (`{ verified: true }`: with a verified email); see `signIn`. */
  signIn(email: string, options?: SignInOptions): Promise<SignedInUser>;
  /**
   * Makes the app what it was when created, for the next test of a file that shares one app:
   * events of the requests so far delivered, every table emptied (`emptyTables`: the
   * application's too), no recorded events, the clock back at its start. The memory rate
   * limiter's counters stay: a test counting requests against it starts an app of its own.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** In-memory SQLite databases migrated once per process, by their list of migrations: their bytes (`serialize()`) and better-sqlite3's constructor. */
const migratedImages: { migrations: readonly Function[]; image: Promise<{ bytes: Buffer; Database: SqliteConstructor } | undefined> }[] = [];

type SqliteConstructor = new (bytes: Buffer, options: object) => unknown;

/**
 * The default database: a new in-memory SQLite database. Given migrations (classes), it is a copy of
 * one that ran them once per process (better-sqlite3 opens a database from `serialize()`'s bytes),
 * so the app finds them all run instead of creating every table again; a copy shares nothing with
 * the image or another copy. Where the image cannot be made (migration files named by path, a
 * migration that fails), the app migrates its own database, and a failure is its own.
 */
async function inMemorySqlite(migrations?: (string | Function)[]): Promise<TestDatabaseOptions> {
  const database = { type: 'better-sqlite3', database: ':memory:' } as const;
  if (migrations === undefined || migrations.some((migration) => typeof migration === 'string')) return database;
  const classes = migrations as Function[];
  let found = migratedImages.find((entry) => entry.migrations.length === classes.length && entry.migrations.every((migration, i) => migration === classes[i]));
  if (found === undefined) {
    found = { migrations: classes, image: migratedImage(classes) };
    migratedImages.push(found);
  }
  const image = await found.image;
  if (image === undefined) return database;
  const { bytes, Database } = image;
  // TypeORM opens the database with `new driver(':memory:', options)`: a constructor that returns the copy.
  return { ...database, driver: function MigratedCopy(_memory: string, driverOptions: object) { return new Database(bytes, driverOptions); } };
}

async function migratedImage(migrations: Function[]): Promise<{ bytes: Buffer; Database: SqliteConstructor } | undefined> {
  const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', migrations, logging: false });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    const connection = (dataSource.driver as unknown as { databaseConnection: { serialize(): Buffer; constructor: SqliteConstructor } }).databaseConnection;
    return { bytes: connection.serialize(), Database: connection.constructor };
  } catch {
    return undefined;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

/**
 * The application's controllers and providers with AuthModule on a fresh in-memory SQLite database
 * (better-sqlite3) or the database you name, a controllable clock and an event recorder,
 * initialised: one line per test file.
 */
export async function createAuthTestApp(options: AuthTestAppOptions = {}): Promise<AuthTestApp> {
  const clock = options.clock ?? new TestClock();
  const start = clock.now();
  const credential = options.strategy === undefined ? (options.credential ?? 'session') : undefined;
  const issuesJwt = credential === 'jwt' || options.strategy === 'jwt';
  // The password method (at the lowest production cost) unless the options name provider methods only.
  const providersOnly = options.options?.password === undefined && (options.options?.oauth2 !== undefined || options.options?.oidc !== undefined);
  const takesPassword = credential !== undefined ? !providersOnly : options.strategy === 'session' || options.strategy === 'jwt';
  const user = options.user;
  const applicationEntities = options.entities ?? [];
  // Every entity of the application, its user entity included, has an injectable repository.
  const injectableEntities = [...new Set([...(user ? [user] : []), ...applicationEntities])];
  const database = options.database ?? (await inMemorySqlite(options.synchronize ? undefined : [...authMigrations, ...(options.migrations ?? [])]));

  @Module({
    imports: [
      EventEmitterModule.forRoot(),
      TypeOrmModule.forRoot({
        ...database,
        entities: [...new Set([...authEntities(user), ...applicationEntities])],
        migrations: options.synchronize ? [] : [...authMigrations, ...(options.migrations ?? [])],
        migrationsRun: !options.synchronize,
        synchronize: options.synchronize ?? false,
      } as DataSourceOptions),
      // The application's modules before AuthModule, as an application would import them.
      ...(options.imports ?? []),
      AuthModule.forRoot({
        ...(credential === undefined ? { strategy: options.strategy } : { credential }),
        entities: { user },
        hooks: options.hooks,
        globalGuard: options.globalGuard,
        baseUrl: 'http://localhost',
        cookie: { secure: false },
        ...(issuesJwt ? { jwt: { secretKey: randomBytes(32).toString('base64url') } } : {}),
        ...options.options,
        ...(takesPassword || options.options?.password ? { password: { bcryptCost: 10, ...options.options?.password } } : {}),
      }),
      ...(injectableEntities.length > 0 ? [TypeOrmModule.forFeature(injectableEntities)] : []),
    ],
    controllers: options.controllers ?? [],
    providers: [AuthEventRecorder, ...(options.providers ?? [])],
  })
  class AuthTestModule {}

  let builder = Test.createTestingModule({ imports: [AuthTestModule] }).overrideProvider(AUTH_CLOCK).useValue(clock);
  if ((options.passwordHasher ?? 'low-cost') === 'low-cost') builder = builder.overrideProvider(lowCostPasswordHasher.provide).useClass(lowCostPasswordHasher.useClass);
  for (const override of options.overrides ?? []) {
    const replaced = builder.overrideProvider(override.provide);
    builder = 'useClass' in override ? replaced.useClass(override.useClass) : replaced.useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ logger: options.logger ?? false });
  options.configure?.(app);
  try {
    await app.init();
  } catch (error) {
    // What started before the failure (the password threads, the database) ends with it.
    await app.close().catch(() => undefined);
    throw error;
  }
  const events = app.get(AuthEventRecorder);
  const dataSource = app.get(DataSource);
  return {
    app,
    server: app.getHttpServer() as Server,
    clock,
    events,
    dataSource,
    signIn: (email, signInOptions) => signIn(app, email, signInOptions),
    reset: async () => {
      await events.settled();
      await emptyTables(dataSource);
      events.clear();
      clock.set(start);
    },
    close: () => app.close(),
  };
}

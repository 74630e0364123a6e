import { expect } from '@jest/globals';
import type { LoggerService, Type } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { type AuthEventName, type AuthEventPayloads, type AuthHooks, type AuthOptions, type MfaOptions } from '#svc/auth';
import { type Engine, freshDatabase } from '../support/engines.js';
import { listenOnLoopback } from '../support/listen.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp, type TestClock } from '../support/test-app.js';
import { fromBase32, stepOf, totpAt } from './rfc6238.js';

export const PASSWORD = 'correct horse battery';
export const STEP_MS = 30_000;
export type CredentialKind = 'session' | 'jwt';

/** Each of `engines` (`BEHAVIOUR_ENGINES`, or `availableEngines()` for engine-specific cases) with each credential. */
export function engineCredentialPairs(engines: readonly Engine[]): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((credential): [Engine, CredentialKind] => [engine, credential]));
}

/** What a signed-in client holds, as headers. */
export interface Held {
  headers: Record<string, string>;
}

/** A user with two-step login on: how to sign in as them and compute their codes. */
export interface TwoStepUser {
  email: string;
  userId: string;
  held: Held;
  secret: Buffer;
  recoveryCodes: string[];
}

export interface TwoStepApp extends TestApp {
  url: string;
  credential: CredentialKind;
  signup(email: string): Promise<Held>;
  login(email: string, password?: string): Promise<request.Response>;
  /** The credential a 200 login (or verify) or a 201 signup handed out. */
  held(response: request.Response): Held;
  me(held: Held): Promise<request.Response>;
  setup(held: Held, password?: string): Promise<request.Response>;
  enable(held: Held, code: unknown): Promise<request.Response>;
  disable(held: Held, body: Record<string, unknown>): Promise<request.Response>;
  regenerate(held: Held, body: Record<string, unknown>): Promise<request.Response>;
  /** POST /mfa/verify with the challenge cookie (or none). */
  verify(challenge: string | undefined, body: Record<string, unknown>, headers?: Record<string, string>): Promise<request.Response>;
  /** The code of `secret` at the clock's time step plus `offset` steps, by the tests' own RFC 6238. */
  codeOf(secret: Buffer, offset?: number): string;
  /** Signs up `email` and turns two-step login on with a code computed from the setup's secret. */
  twoStepUser(email: string): Promise<TwoStepUser>;
  /** Logs in with the password: the challenge cookie's value (asserting the 200 challenge answer). */
  challenge(email: string): Promise<string>;
  delivered<N extends AuthEventName>(name: N): Promise<AuthEventPayloads[N][]>;
  rows(table: 'mfa_totp' | 'mfa_recovery_codes', userId: string): Promise<Record<string, unknown>[]>;
  userRow(userId: string): Promise<Record<string, unknown>>;
}

export interface TwoStepAppOptions {
  engine: Engine;
  credential: CredentialKind;
  mfa?: Partial<MfaOptions>;
  options?: Partial<AuthOptions>;
  hooks?: Type<AuthHooks>;
  providers?: Type[];
  logger?: LoggerService;
  clock?: TestClock;
  database?: Awaited<ReturnType<typeof freshDatabase>>;
}

/** A password application with the `mfa` section, listening on loopback (requests may overlap). */
export async function createTwoStepApp(options: TwoStepAppOptions): Promise<TwoStepApp> {
  const { credential } = options;
  const t = await createTestApp({
    engine: options.engine,
    strategy: credential,
    hooks: options.hooks,
    providers: options.providers,
    logger: options.logger,
    clock: options.clock,
    database: options.database,
    options: {
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      ...(credential === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {}),
      mfa: { issuer: 'svc tests', ...options.mfa },
      ...options.options,
    },
  });
  const url = await listenOnLoopback(t.server);
  const post = (path: string, held?: Held) => (held ? request(url).post(path).set(held.headers) : request(url).post(path));
  const app: TwoStepApp = {
    ...t,
    url,
    credential,
    async signup(email) {
      const response = await request(url).post('/auth/signup').send({ email, password: PASSWORD });
      expect(response.status).toBe(201);
      return app.held(response);
    },
    login: (email, password = PASSWORD) => request(url).post('/auth/login').send({ email, password }),
    held(response): Held {
      if (credential === 'session') return { headers: { Cookie: `svc_session=${cookiesOf(response).svc_session.value}` } };
      return { headers: { Authorization: `Bearer ${response.body.access_token as string}` } };
    },
    me: (held) => request(url).get('/auth/me').set(held.headers),
    setup: (held, password = PASSWORD) => post('/auth/mfa/totp/setup', held).send({ password }),
    enable: (held, code) => post('/auth/mfa/totp/enable', held).send({ code }),
    disable: (held, body) => post('/auth/mfa/totp/disable', held).send(body),
    regenerate: (held, body) => post('/auth/mfa/recovery-codes', held).send(body),
    verify: (challenge, body, headers = {}) => {
      const r = request(url).post('/auth/mfa/verify').set(headers);
      return (challenge === undefined ? r : r.set('Cookie', `svc_mfa=${challenge}`)).send(body);
    },
    codeOf: (secret, offset = 0) => totpAt(secret, stepOf(t.clock.now()) + offset),
    async twoStepUser(email) {
      const held = await app.signup(email);
      const setup = await app.setup(held);
      expect(setup.status).toBe(200);
      const secret = fromBase32(setup.body.secret);
      const enabled = await app.enable(held, app.codeOf(secret));
      expect(enabled.status).toBe(200);
      const me = await app.me(held);
      // The enabling code's step is spent: the next code comes from the next step.
      t.clock.advance(STEP_MS);
      return { email, userId: me.body.id, held, secret, recoveryCodes: enabled.body.recoveryCodes };
    },
    async challenge(email) {
      const response = await app.login(email);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
      return cookiesOf(response).svc_mfa.value;
    },
    async delivered(name) {
      await t.afterResponses();
      return t.events.payloadsOf(name) as unknown as AuthEventPayloads[typeof name][];
    },
    rows: (table, userId) => t.dataSource.query(`SELECT * FROM ${table} WHERE user_id = '${userId}'`),
    async userRow(userId) {
      const [row] = await t.dataSource.query(`SELECT * FROM users WHERE id = '${userId}'`);
      return row;
    },
  };
  return app;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A boolean column as a boolean, whichever engine stored it (SQLite keeps 0 and 1). */
export function boolOf(value: unknown): boolean {
  return value === true || value === 1;
}

/**
 * A database that outlives one application, for two in turn (a restart with other options): on
 * PostgreSQL a fresh database, on SQLite a file (an in-memory one dies with its connection).
 */
export async function lastingDatabase(engine: Engine): Promise<{ forEach: Awaited<ReturnType<typeof freshDatabase>>; drop: () => Promise<void> }> {
  const database =
    engine === 'postgres'
      ? await freshDatabase(engine)
      : (() => {
          const file = path.join(tmpdir(), `svc-two-step-${randomBytes(6).toString('hex')}.sqlite`);
          return { options: { type: 'better-sqlite3' as const, database: file }, drop: () => rm(file, { force: true }) };
        })();
  return { forEach: { options: database.options, drop: async () => undefined }, drop: database.drop };
}

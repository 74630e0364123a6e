import { AuthEvent } from '#svc/auth';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { credentialRows, type DatabaseRows } from '../../support/database-rows.js';
import { availableEngines, BEHAVIOUR_ENGINES, type Engine } from '../../support/engines.js';
import { listenOnLoopback } from '../../support/listen.js';
import { cookieOf, type RawRequest, type RawResponse, sendRaw } from '../../support/raw-http.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';

export type FuzzStrategy = 'session' | 'jwt';

export interface FuzzSetup {
  engine: Engine;
  strategy: FuzzStrategy;
}

/**
 * Every engine that answers, with each password strategy: for the properties whose fuzzed values
 * reach the database's own text handling (arbitrary JSON bodies, bytes that may join into UTF-8,
 * NUL and lone surrogates), which each engine takes or refuses in its own way.
 */
export async function fuzzSetups(): Promise<FuzzSetup[]> {
  return setupsOn(await availableEngines());
}

/**
 * The behaviour engines (test/support/engines.ts) with each password strategy: for the properties
 * whose requests are refused or answered before any fuzzed value reaches a statement (headers,
 * encodings, paths, cookies, types, the other input rules).
 */
export function behaviourFuzzSetups(): FuzzSetup[] {
  return setupsOn(BEHAVIOUR_ENGINES);
}

function setupsOn(engines: readonly Engine[]): FuzzSetup[] {
  return engines.flatMap((engine) => (['session', 'jwt'] as const).map((strategy) => ({ engine, strategy })));
}

/** The library endpoints of a strategy, as `METHOD path` under the default prefix. */
export function endpointsOf(strategy: FuzzStrategy): { method: 'GET' | 'POST'; path: string }[] {
  const posts = ['signup', 'login', 'logout', 'forgot-password', 'reset-password', ...(strategy === 'jwt' ? ['refresh'] : [])];
  return [...posts.map((name) => ({ method: 'POST' as const, path: `/auth/${name}` })), { method: 'GET', path: '/auth/me' }];
}

/** The credentials of one account that exists before the fuzzing starts, so refused requests have something to spoil. */
export interface SeedAccount {
  userId: string;
  email: string;
  password: string;
  /** Session strategy: the session cookie's value. */
  session?: string;
  /** Jwt strategy: the refresh cookie's value and an access token. */
  refresh?: string;
  access?: string;
  /** An unused reset token of the account. */
  resetToken: string;
}

/** An application under fuzz: listening on a port, its log captured, with a seed account. */
export interface FuzzTarget extends FuzzSetup {
  url: string;
  app: TestApp;
  logger: CapturingLogger;
  seed: SeedAccount;
  /** The cookie name of the strategy's credential. */
  cookieName: 'svc_session' | 'svc_refresh';
  send(request: RawRequest): Promise<RawResponse>;
  rows(): Promise<DatabaseRows>;
  /** Gives the seed account fresh credentials (after a request that may have used them up). */
  renewSeed(): Promise<void>;
  close(): Promise<void>;
}

const SEED_EMAIL = 'seed@fuzz.test';
export const SEED_PASSWORD = 'seed password 1';

export async function createFuzzTarget(setup: FuzzSetup): Promise<FuzzTarget> {
  const logger = new CapturingLogger();
  const app = await createTestApp({
    engine: setup.engine,
    strategy: setup.strategy,
    logger,
    options: setup.strategy === 'jwt' ? { jwt: { secretKey: TEST_SECRET } } : {},
  });
  const url = await listenOnLoopback(app.server);
  const send = (request: RawRequest) => sendRaw(url, request);
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send({ method: 'POST', path, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  const seed: SeedAccount = { userId: '', email: SEED_EMAIL, password: SEED_PASSWORD, resetToken: '' };
  const takeCredential = (response: RawResponse) => {
    const name = setup.strategy === 'session' ? 'svc_session' : 'svc_refresh';
    const cookie = cookieOf(response, name);
    if (cookie === undefined) throw new Error(`seed: no ${name} cookie in ${JSON.stringify(response.setCookies)}`);
    if (setup.strategy === 'session') seed.session = cookie;
    else {
      seed.refresh = cookie;
      seed.access = (response.json as { access_token: string }).access_token;
    }
  };
  const requestResetToken = async () => {
    await app.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = app.events.payloadsOf(AuthEvent.PasswordResetRequested).length;
    const response = await json('/auth/forgot-password', { email: SEED_EMAIL });
    if (response.status !== 202) throw new Error(`seed: forgot-password answered ${response.status} ${response.text}`);
    const [event] = (await app.events.waitFor(AuthEvent.PasswordResetRequested, before + 1)).slice(before);
    seed.resetToken = event.token as string;
  };

  const signup = await json('/auth/signup', { email: SEED_EMAIL, password: SEED_PASSWORD });
  if (signup.status !== 201) throw new Error(`seed: signup answered ${signup.status} ${signup.text}`);
  takeCredential(signup);
  seed.userId = (await app.dataSource.query(`SELECT id FROM users WHERE email = '${SEED_EMAIL}'`))[0].id;
  await requestResetToken();

  return {
    ...setup,
    url,
    app,
    logger,
    seed,
    cookieName: setup.strategy === 'session' ? 'svc_session' : 'svc_refresh',
    send,
    rows: () => credentialRows(app.dataSource),
    renewSeed: async () => {
      // A reset first: a request the library should have refused may have changed the password.
      await requestResetToken();
      const reset = await json('/auth/reset-password', { token: seed.resetToken, password: SEED_PASSWORD });
      if (reset.status !== 204) throw new Error(`seed: reset-password answered ${reset.status} ${reset.text}`);
      const login = await json('/auth/login', { email: SEED_EMAIL, password: SEED_PASSWORD });
      if (login.status !== 200) throw new Error(`seed: login answered ${login.status} ${login.text}`);
      takeCredential(login);
      await requestResetToken();
    },
    close: () => app.close(),
  };
}

const shared = new Map<string, Promise<FuzzTarget>>();

/**
 * The application of `setup` that every property of test/fuzz/index.ts sends to: built once,
 * at its first use (each property leaves the seed account usable: `renewSeed`), closed by
 * `closeSharedFuzzTargets` once all have run.
 */
export function sharedFuzzTarget(setup: FuzzSetup): Promise<FuzzTarget> {
  const key = `${setup.engine}/${setup.strategy}`;
  let target = shared.get(key);
  if (target === undefined) {
    target = createFuzzTarget(setup);
    shared.set(key, target);
  }
  return target;
}

export async function closeSharedFuzzTargets(): Promise<void> {
  const targets = [...shared.values()];
  shared.clear();
  for (const target of targets) await (await target.catch(() => undefined))?.close();
}

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { AuthOptions } from '#svc/auth';
import { BEHAVIOUR_ENGINES, type Engine } from '../support/engines.js';
import type { RawRequest, RawResponse } from '../support/raw-http.js';
import { type Account, createFaultApp, type FaultApp, PASSWORD } from './support/fault-app.js';
import { expectHookFailed, within } from './support/fault-checks.js';
import { hookBehaviour, MisbehavingHooks } from './support/misbehaving-hooks.js';

const SETUPS = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((strategy) => ({ engine, strategy })));

/** One request per hook, built from an account and a reset token made while the hooks pass. */
function hookedRequests(app: FaultApp, account: Account, resetToken: string, strategy: 'session' | 'jwt'): [string, RawRequest][] {
  const cookie = { Cookie: `${app.cookieName}=${account.cookie}` };
  const signedIn = strategy === 'session' ? cookie : { Authorization: `Bearer ${account.access}` };
  return [
    ['beforeSignup', app.post('/auth/signup', { email: `new-${randomBytes(4).toString('hex')}@fault.test`, password: PASSWORD })],
    ['beforeLogin', app.post('/auth/login', { email: account.email, password: PASSWORD }, cookie)],
    ['beforeLogout', app.post('/auth/logout', undefined, cookie)],
    ...(strategy === 'jwt' ? ([['beforeRefresh', app.post('/auth/refresh', undefined, cookie)]] as [string, RawRequest][]) : []),
    ['beforeForgotPassword', app.post('/auth/forgot-password', { email: account.email })],
    ['beforeResetPassword', app.post('/auth/reset-password', { token: resetToken, password: 'a new password 1' })],
    ['beforeChangePassword', app.post('/auth/change-password', { current_password: PASSWORD, new_password: 'a new password 2' }, signedIn)],
  ];
}

async function appWithHooks(engine: Engine, strategy: 'session' | 'jwt', options: Partial<AuthOptions> = {}) {
  hookBehaviour.mode = 'pass';
  const app = await createFaultApp({ engine, strategy, hooks: MisbehavingHooks, options });
  const account = await app.signup(`hooked-${randomBytes(4).toString('hex')}@fault.test`);
  const resetToken = await app.resetTokenFor(account.email);
  return { app, account, resetToken };
}

describe.each(SETUPS)('before-hooks that crash on $strategy, $engine (docs/decisions/0011-before-hooks.md)', ({ engine, strategy }) => {
  let app: FaultApp;
  let requests: [string, RawRequest][];
  beforeAll(async () => {
    const made = await appWithHooks(engine, strategy);
    app = made.app;
    requests = hookedRequests(app, made.account, made.resetToken, strategy);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => {
    hookBehaviour.mode = 'pass';
  });

  it.each(['throw', 'reject'] as const)('a hook that %ss: 500 HOOK_FAILED, no cookie, nothing written, logged to svc without a stack', async (mode) => {
    for (const [hook, request] of requests) {
      const before = await app.rows();
      hookBehaviour.mode = mode;
      const response = await app.send(request);
      hookBehaviour.mode = 'pass';
      expectHookFailed(response);
      expect({ hook, rows: await app.rows() }).toEqual({ hook, rows: before });
      expect(app.logger.matching('error', `before-hook ${hook} failed`).length).toBeGreaterThan(0);
    }
    expect(app.logger.withStackFrames()).toEqual([]);
  });
});

describe.each(SETUPS)('before-hooks that never settle, hookTimeoutSeconds: 1, on $strategy, $engine', ({ engine, strategy }) => {
  let app: FaultApp | undefined;
  let requests: [string, RawRequest][];
  beforeAll(async () => {
    const made = await appWithHooks(engine, strategy, { hookTimeoutSeconds: 1 });
    app = made.app;
    requests = hookedRequests(made.app, made.account, made.resetToken, strategy);
  });
  afterAll(async () => {
    hookBehaviour.mode = 'pass';
    await app?.close();
  });

  it('every hooked request answers 500 HOOK_FAILED after about a second, nothing written; the app then serves and closes', async () => {
    const live = app!;
    const before = await live.rows();
    hookBehaviour.mode = 'hang';
    const timed = async (request: RawRequest): Promise<{ response: RawResponse; ms: number }> => {
      const started = Date.now();
      // The client gives up after 5 s, so a request the library never answers fails here instead of hanging the suite.
      const response = await live.send({ ...request, timeoutMs: 5000 });
      return { response, ms: Date.now() - started };
    };
    const answers = await Promise.all(requests.map(([, request]) => timed(request)));
    hookBehaviour.mode = 'pass';
    for (const { response, ms } of answers) {
      expectHookFailed(response);
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(5000);
    }
    expect(await live.rows()).toEqual(before);
    for (const [hook] of requests) expect(live.logger.matching('error', hook).length).toBeGreaterThan(0);
    expect(live.logger.withStackFrames()).toEqual([]);

    expect((await live.send(live.post('/auth/signup', { email: `after-${randomBytes(4).toString('hex')}@fault.test`, password: PASSWORD }))).status).toBe(201);
    app = undefined;
    await within(10_000, 'app.close() with hooks still pending', live.close());
  });
});

import { HttpStatus, Injectable } from '@nestjs/common';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { inspect } from 'node:util';
import request from 'supertest';
import {
  AuthEvent,
  type AuthHooks,
  HookAbort,
  type LoginPayload,
  OnAuthEvent,
  SecretString,
  type SignupPayload,
} from '#svc/auth';
import { eventually } from '../../support/eventually.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf, createTestApp, type TestApp } from '../../support/test-app.js';

/** What the hooks saw, and how the test wants them to behave. */
const seen: { signup: SignupPayload[]; login: LoginPayload[]; mode: 'pass' | 'abort' | 'abort-429' | 'crash' | 'rename' | 'plain-password' } = { signup: [], login: [], mode: 'pass' };

@Injectable()
class TestHooks implements AuthHooks {
  beforeSignup(payload: SignupPayload): SignupPayload {
    seen.signup.push(payload);
    if (seen.mode === 'abort') throw new HookAbort('Signups are closed');
    if (seen.mode === 'abort-429') throw new HookAbort('Slow down', HttpStatus.TOO_MANY_REQUESTS);
    if (seen.mode === 'crash') throw new Error(`boom with ${payload.password.reveal()}`);
    if (seen.mode === 'rename') return { ...payload, displayName: 'Set by hook' };
    if (seen.mode === 'plain-password') return { ...payload, password: 'chosen by the hook' as unknown as SignupPayload['password'] };
    return payload;
  }

  async beforeLogin(payload: LoginPayload): Promise<LoginPayload> {
    seen.login.push(payload);
    return payload;
  }
}

/** Observers: one that crashes, one that records; the crash must not reach the response or the other. */
@Injectable()
class CrashingObserver {
  @OnAuthEvent(AuthEvent.SignupAfter)
  explode(): void {
    throw new Error('observer exploded');
  }

  @OnAuthEvent(AuthEvent.LoginAfter)
  async explodeLater(): Promise<void> {
    throw new Error('async observer exploded');
  }
}

describe.each(BEHAVIOUR_ENGINES)('before-hooks and observers on %s', (engine) => {
  let t: TestApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    t = await createTestApp({ engine, hooks: TestHooks, providers: [CrashingObserver], logger });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.mode = 'pass';
    seen.signup.length = 0;
    seen.login.length = 0;
    logger.clear();
  });

  const signup = (email: string) => request(t.server).post('/auth/signup').send({ email, password: 'correct horse', displayName: 'Eve' });
  const users = () => t.dataSource.query('SELECT * FROM users');

  it('hands the validated payload to the hook with the password as a SecretString', async () => {
    expect((await signup('hook@x.io')).status).toBe(201);
    const [payload] = seen.signup;
    expect(payload.email).toBe('hook@x.io');
    expect(payload.displayName).toBe('Eve');
    expect(payload.password).toBeInstanceOf(SecretString);
    expect(payload.password.reveal()).toBe('correct horse');
    expect(String(payload.password)).toBe('**********');
    expect(JSON.stringify(payload)).not.toContain('correct horse');
    expect(inspect(payload)).not.toContain('correct horse');

    await request(t.server).post('/auth/login').send({ email: 'hook@x.io', password: 'correct horse' });
    expect(seen.login[0].password).toBeInstanceOf(SecretString);
  });

  it('uses the payload the hook returns', async () => {
    seen.mode = 'rename';
    const response = await signup('renamed@x.io');
    expect(response.body.displayName).toBe('Set by hook');
  });

  it('a hook may hand the password back as a plain string: it is taken as the password', async () => {
    seen.mode = 'plain-password';
    expect((await signup('plain@x.io')).status).toBe(201);
    const login = await request(t.server).post('/auth/login').send({ email: 'plain@x.io', password: 'chosen by the hook' });
    expect(login.status).toBe(200);
  });

  it('HookAbort blocks the operation: 403 HOOK_ABORTED with the hook message, nothing stored', async () => {
    const before = (await users()).length;
    seen.mode = 'abort';
    const response = await signup('blocked@x.io');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Signups are closed', code: 'HOOK_ABORTED' });
    expect(cookiesOf(response).svc_session).toBeUndefined();
    expect(await users()).toHaveLength(before);
    seen.mode = 'abort-429';
    expect((await signup('blocked@x.io')).status).toBe(429);
  });

  it('a crashing hook fails closed with 500 HOOK_FAILED, leaks nothing, logs to svc without the secret', async () => {
    const before = (await users()).length;
    seen.mode = 'crash';
    const response = await signup('crash@x.io');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'HOOK_FAILED' });
    expect(await users()).toHaveLength(before);
    expect(logger.lines).toContainEqual({ level: 'error', text: 'before-hook beforeSignup failed: Error: boom with **********\nsvc' });
    expect(JSON.stringify(logger.lines)).not.toContain('correct horse');
  });

  it('observers run after the response with their payloads; a crashing observer is logged to svc and changes nothing', async () => {
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const signups = t.events.payloadsOf(AuthEvent.SignupAfter).length;
    const logins = t.events.payloadsOf(AuthEvent.LoginAfter).length;
    const response = await signup('observed@x.io');
    expect(response.status).toBe(201);
    const event = (await t.events.waitFor(AuthEvent.SignupAfter, signups + 1)).at(-1);
    expect(event).toEqual({ user: response.body });
    await t.afterResponses();
    expect(logger.lines).toContainEqual({ level: 'error', text: expect.stringMatching(/^observer of svc.signup.after failed: Error: observer exploded.*\nsvc$/s) });

    const login = await request(t.server).post('/auth/login').send({ email: 'observed@x.io', password: 'correct horse' });
    expect(login.status).toBe(200);
    const loginEvent = (await t.events.waitFor(AuthEvent.LoginAfter, logins + 1)).at(-1);
    expect(loginEvent).toEqual({ user: login.body, strategy: 'session', method: 'password', credential: 'session' });
    await eventually('the async observer crash logged', () =>
      logger.lines.some((line) => line.text.startsWith('observer of svc.login.after failed') && line.text.includes('async observer exploded') && line.text.endsWith('\nsvc')),
    );
  });

  it('login failure events carry the reason, the ip and the time, never the password', async () => {
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const startCount = t.events.payloadsOf(AuthEvent.LoginFailure).length;
    await signup('fail@x.io');
    await request(t.server).post('/auth/login').send({ email: 'fail@x.io', password: 'wrong horse' });
    await request(t.server).post('/auth/login').send({ email: 'ghost@x.io', password: 'wrong horse' });
    const failures = (await t.events.waitFor(AuthEvent.LoginFailure, startCount + 2)).slice(startCount);
    expect(failures).toEqual([
      { email: 'fail@x.io', reason: 'bad_password', ip: expect.stringMatching(/127\.0\.0\.1|::1/), at: t.clock.now() },
      { email: 'ghost@x.io', reason: 'unknown_email', ip: expect.any(String), at: t.clock.now() },
    ]);
    expect(JSON.stringify(failures)).not.toContain('wrong horse');
  });

  it('logout fires svc.logout.after with the user id', async () => {
    const created = await signup('bye@x.io');
    await request(t.server).post('/auth/logout').set('Cookie', `svc_session=${cookiesOf(created).svc_session.value}`);
    const events = await t.events.waitFor(AuthEvent.LogoutAfter, 1);
    expect(events).toContainEqual({ userId: created.body.id });
  });
});

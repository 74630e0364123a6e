import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import request from 'supertest';
import type { AuthHooks, LoginPayload, SignupPayload } from '#svc/auth';
import { CapturingLogger } from '../support/capturing-logger.js';
import { availableEngines } from '../support/engines.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const ENGINES = await availableEngines();

/** Hooks that never answer for the addresses the test picks. */
@Injectable()
class HangingHooks implements AuthHooks {
  beforeSignup(payload: SignupPayload): Promise<SignupPayload> {
    return payload.email.startsWith('hang') ? new Promise(() => undefined) : Promise.resolve(payload);
  }

  beforeLogin(payload: LoginPayload): Promise<LoginPayload> {
    return payload.email.startsWith('hang') ? new Promise(() => undefined) : Promise.resolve(payload);
  }
}

/** A before-hook that never settles fails the request closed once `hookTimeoutSeconds` have passed. */
describe.each(ENGINES)('a hanging before-hook on %s', (engine) => {
  let t: TestApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    t = await createTestApp({ engine, hooks: HangingHooks, logger, options: { hookTimeoutSeconds: 1 } });
  });
  afterAll(() => t?.close());

  it('answers 500 HOOK_FAILED after the timeout, writes nothing, and logs which hook', async () => {
    const started = Date.now();
    const response = await request(t.server).post('/auth/signup').send({ email: 'hang@x.io', password: 'correct horse' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'HOOK_FAILED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await t.dataSource.query('SELECT id FROM users')).toEqual([]);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(logger.lines.map((line) => line.text)).toContainEqual(expect.stringContaining('before-hook beforeSignup gave no answer within 1 s'));
  });

  it('other requests go on meanwhile', async () => {
    const hanging = request(t.server).post('/auth/login').send({ email: 'hang@x.io', password: 'correct horse' }).then((response) => response);
    const signup = await request(t.server).post('/auth/signup').send({ email: 'fine@x.io', password: 'correct horse' });
    expect(signup.status).toBe(201);
    expect((await hanging).status).toBe(500);
  });
});

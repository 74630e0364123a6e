import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { availableEngines } from '../support/engines.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from './recovery-client.js';

const ENGINES = await availableEngines();
const PASSWORD = 'correct horse';

// README, "Rate limiting": with a rateLimit section, forgot-password (per address and per account) and
// reset-password (per address) are limited out of the box.
describe.each(ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'password recovery rate limits on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    beforeEach(async () => {
      t = await createTestApp({
        engine,
        strategy,
        options: { ...recoveryOptions(strategy), rateLimit: { max: 3, windowSeconds: 60, backend: 'database', trustedIpHeader: 'x-forwarded-for' } },
      });
    });
    afterEach(() => t.close());

    const forgot = (from: string, email: string) => request(t.server).post('/auth/forgot-password').set('X-Forwarded-For', from).send({ email });
    const reset = (from: string, token: string) => request(t.server).post('/auth/reset-password').set('X-Forwarded-For', from).send({ token, password: 'battery staple' });

    it('forgot-password: per account across addresses, known and unknown emails alike', async () => {
      await new RecoveryClient(t, strategy).createUser('known@x.io', PASSWORD);
      for (const email of ['known@x.io', 'unknown@x.io']) {
        for (const n of [1, 2, 3]) expect((await forgot(`203.0.113.${n}`, email)).status).toBe(202);
      }
      const known = await forgot('203.0.113.9', ' Known@X.io');
      const unknown = await forgot('203.0.113.10', 'unknown@x.io');
      expect(known.status).toBe(429);
      expect(known.body.code).toBe('RATE_LIMITED');
      expect(unknown.status).toBe(429);
      expect(unknown.body).toEqual(known.body);
      t.clock.advance(60_000);
      expect((await forgot('203.0.113.9', 'known@x.io')).status).toBe(202);
    });

    it('change-password: per user across addresses, so a stolen credential cannot spread its guesses', async () => {
      const signup = await request(t.server).post('/auth/signup').send({ email: 'owner@x.io', password: PASSWORD });
      const credential = strategy === 'session' ? { Cookie: signup.headers['set-cookie'] } : { Authorization: `Bearer ${signup.body.access_token}` };
      const change = (from: string, current: string) =>
        request(t.server).post('/auth/change-password').set('X-Forwarded-For', from).set(credential).send({ current_password: current, new_password: 'battery staple' });
      for (const n of [1, 2, 3]) expect((await change(`203.0.113.${n}`, `guess ${n}`)).status).toBe(403);
      const fourth = await change('203.0.113.4', PASSWORD);
      expect([fourth.status, fourth.body.code]).toEqual([429, 'RATE_LIMITED']);
      t.clock.advance(60_000);
      expect((await change('203.0.113.5', PASSWORD)).status).toBe(204);
    });

    it('forgot-password and reset-password: one address gets max requests per window', async () => {
      for (const name of ['a', 'b', 'c']) expect((await forgot('198.51.100.1', `${name}@x.io`)).status).toBe(202);
      expect((await forgot('198.51.100.1', 'd@x.io')).status).toBe(429);
      for (let n = 0; n < 3; n++) expect((await reset('198.51.100.2', `guess-${n}`)).status).toBe(400);
      const refused = await reset('198.51.100.2', 'guess-3');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect((await reset('198.51.100.3', 'guess-4')).status).toBe(400);
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const PASSWORD = 'correct horse';
const WRONG = 'wrong horse!';

describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'svc.login.failure (LoginFailure) on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    let client: RecoveryClient;
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, options: recoveryOptions(strategy) });
      client = new RecoveryClient(t, strategy);
      await client.signup('member@x.io', PASSWORD);
      await client.signup('idle@x.io', PASSWORD);
      await t.dataSource.query(`UPDATE users SET is_active = false WHERE email = 'idle@x.io'`);
    });
    afterAll(() => t?.close());

    /** Logs in and returns the response and the failure event it caused (or undefined). */
    async function failedLogin(email: string, password: string) {
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = t.events.payloadsOf(AuthEvent.LoginFailure).length;
      const response = await client.login(email, password);
      const [event] = (await t.events.waitFor(AuthEvent.LoginFailure, before + 1)).slice(before);
      return { response, event };
    }

    it('unknown email: 401 INVALID_CREDENTIALS, reason unknown_email', async () => {
      const { response, event } = await failedLogin('  Nobody@X.io', WRONG);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_CREDENTIALS');
      expect(event).toEqual({ email: 'nobody@x.io', reason: 'unknown_email', ip: expect.stringMatching(/^(127\.0\.0\.1|::1)$/), at: t.clock.now() });
    });

    it('wrong password: the same 401 body, reason bad_password', async () => {
      const unknown = await client.login('nobody@x.io', WRONG);
      const { response, event } = await failedLogin('member@x.io', WRONG);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unknown.body);
      expect(event).toEqual({ email: 'member@x.io', reason: 'bad_password', ip: expect.any(String), at: t.clock.now() });
    });

    it('right password of an inactive user: 403 USER_INACTIVE, reason inactive', async () => {
      const { response, event } = await failedLogin('idle@x.io', PASSWORD);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('USER_INACTIVE');
      expect(event).toEqual({ email: 'idle@x.io', reason: 'inactive', ip: expect.any(String), at: t.clock.now() });
    });

    it('wrong password of an inactive user says nothing about the account: 401, bad_password', async () => {
      const { response, event } = await failedLogin('idle@x.io', WRONG);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_CREDENTIALS');
      expect(event).toMatchObject({ email: 'idle@x.io', reason: 'bad_password' });
    });

    it('carries exactly email, reason, ip and at: never a password or a hash', async () => {
      const failures = t.events.payloadsOf(AuthEvent.LoginFailure);
      expect(failures.length).toBeGreaterThanOrEqual(4);
      for (const failure of failures) {
        expect(Object.keys(failure).sort()).toEqual(['at', 'email', 'ip', 'reason']);
        expect(failure.at).toBeInstanceOf(Date);
        const shown = JSON.stringify(failure);
        expect(shown).not.toContain(PASSWORD);
        expect(shown).not.toContain(WRONG);
        expect(shown).not.toMatch(/\$2[aby]\$/);
      }
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const successBefore = t.events.payloadsOf(AuthEvent.LoginFailure).length;
      expect((await client.login('member@x.io', PASSWORD)).status).toBe(200);
      await t.events.waitFor(AuthEvent.LoginAfter);
      expect(t.events.payloadsOf(AuthEvent.LoginFailure)).toHaveLength(successBefore);
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import bcrypt from 'bcrypt';
import request from 'supertest';
import { lowCostOf, PasswordHasher } from '#svc/auth/testing';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions, type Credentials } from '../password-recovery/recovery-client.js';
import { availableEngines } from '../support/engines.js';
import { GatedPasswordHasher } from '../support/gated-password-hasher.js';
import { cookiesOf, createTestApp, type TestApp } from '../support/test-app.js';

const ENGINES = await availableEngines();
const OLD = 'correct horse';
const NEW = 'battery staple';

/**
 * docs/decisions/0009-login-and-concurrent-changes.md: a credential is issued only against the password hash that was verified. A login
 * racing a password reset must end with no working credential of the old password, however the two
 * requests interleave. The interleavings are fixed with a gate after bcrypt (the requests are real
 * and concurrent; the gate proves they overlapped), then in an attacker's loop whose logins are let
 * through while the reset waits at its gate. Costs are the testing kit's (`lowCostOf`): 10 and 11
 * hash at 4 and 5, in the same order.
 */
describe.each(ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'a login racing a password reset on %s, %s strategy',
  (engine, strategy) => {
    let t: TestApp;
    let client: RecoveryClient;
    let hasher: GatedPasswordHasher;
    let serial = 0;
    beforeAll(async () => {
      t = await createTestApp({
        engine,
        strategy,
        // Cost 11 for new hashes, so a user stored at cost 10 is silently upgraded at login (at the kit's low costs).
        options: recoveryOptions(strategy, { bcryptCost: 11 }),
        overrides: [{ provide: PasswordHasher, useClass: GatedPasswordHasher }],
      });
      await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
      client = new RecoveryClient(t, strategy);
      hasher = t.app.get(PasswordHasher);
    });
    afterAll(() => t?.close());

    async function user(): Promise<string> {
      const email = `race${++serial}@x.io`;
      await client.createUser(email, OLD);
      return email;
    }

    /** A user whose stored hash has cost 10, below the configured 11. */
    async function userWithCheapHash(): Promise<string> {
      const email = await user();
      await t.dataSource.query(`UPDATE users SET password_hash = ${t.dataSource.driver.createParameter('p0', 0)} WHERE email = '${email}'`, [await bcrypt.hash(OLD, lowCostOf(10))]);
      return email;
    }

    /** Starts a request and reports whether it has answered yet. */
    function inFlight<T>(pending: PromiseLike<T>): { done: () => boolean; response: Promise<T> } {
      let finished = false;
      const response = Promise.resolve(pending).finally(() => (finished = true));
      return { done: () => finished, response };
    }

    /** Called by an attacker each time one of its logins has answered: what `loginsCompleted` waits on. */
    let loginAnswered: (() => void) | undefined;

    /** Resolves once `count` of the attackers' logins have answered (their intervals are recorded). */
    async function loginsCompleted(intervals: unknown[], count: number): Promise<void> {
      while (intervals.length < count) await new Promise<void>((resolve) => (loginAnswered = resolve));
    }

    async function expectNoCredentialIssued(response: { status: number; body: { code?: string }; headers: Record<string, unknown> }): Promise<void> {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_CREDENTIALS');
      expect(Object.keys(cookiesOf(response)).filter((name) => name === 'svc_session' || name === 'svc_refresh')).toEqual([]);
    }

    async function expectPasswordIs(email: string, current: string, former: string): Promise<void> {
      expect((await client.login(email, former)).status).toBe(401);
      expect((await client.login(email, current)).status).toBe(200);
    }

    it('a reset that commits while the login runs bcrypt: the login issues nothing', async () => {
      const email = await user();
      const token = await client.requestToken(email);
      const gate = hasher.pauseNextVerify();
      const login = inFlight(client.login(email, OLD));
      await gate.entered; // the login has read the old hash and bcrypt said yes

      expect((await client.reset(token, NEW)).status).toBe(204);
      expect(login.done()).toBe(false); // the two requests overlapped: the reset answered first
      gate.release();

      await expectNoCredentialIssued(await login.response);
      await expectPasswordIs(email, NEW, OLD);
    });

    it('a login that commits while the reset runs bcrypt: the reset ends its credential', async () => {
      const email = await user();
      const token = await client.requestToken(email);
      const gate = hasher.pauseNextHash();
      const reset = inFlight(client.reset(token, NEW));
      await gate.entered; // the reset has checked its token and hashed the new password

      const credentials = await client.loginFor(email, OLD);
      expect(reset.done()).toBe(false);
      gate.release();

      expect((await reset.response).status).toBe(204);
      expect(await credentials.statuses()).toEqual(strategy === 'session' ? [401] : [401, 401]);
      await expectPasswordIs(email, NEW, OLD);
    });

    it('a silent bcrypt upgrade never overwrites the hash a concurrent reset stored', async () => {
      const email = await userWithCheapHash();
      const token = await client.requestToken(email);
      const gate = hasher.pauseNextHash();
      const login = inFlight(client.login(email, OLD));
      await gate.entered; // the login verified the old password and re-hashed it at cost 11

      expect((await client.reset(token, NEW)).status).toBe(204);
      expect(login.done()).toBe(false);
      gate.release();

      await expectNoCredentialIssued(await login.response);
      await expectPasswordIs(email, NEW, OLD);
    });

    it('two logins upgrading one hash at once both succeed, and the hash ends at the configured cost', async () => {
      const email = await userWithCheapHash();
      const gate = hasher.pauseNextHash();
      const first = inFlight(client.login(email, OLD));
      await gate.entered;

      expect((await client.login(email, OLD)).status).toBe(200); // upgrades the hash to cost 11
      expect(first.done()).toBe(false);
      gate.release();

      expect((await first.response).status).toBe(200);
      const [row] = await t.dataSource.query(`SELECT password_hash FROM users WHERE email = '${email}'`);
      expect(bcrypt.getRounds(row.password_hash)).toBe(lowCostOf(11));
      expect((await client.login(email, OLD)).status).toBe(200);
    });

    it("a change of password racing a login's silent upgrade still succeeds: the upgrade changed the hash, not the password", async () => {
      const email = `race${++serial}@x.io`;
      const signup = await client.signup(email, OLD);
      const credential = strategy === 'session' ? { Cookie: signup.headers['set-cookie'] } : { Authorization: `Bearer ${signup.body.access_token}` };
      await t.dataSource.query(`UPDATE users SET password_hash = ${t.dataSource.driver.createParameter('p0', 0)} WHERE email = '${email}'`, [await bcrypt.hash(OLD, lowCostOf(10))]);
      const gate = hasher.pauseNextHash();
      const change = inFlight(request(t.server).post('/auth/change-password').set(credential).send({ current_password: OLD, new_password: NEW }));
      await gate.entered; // the change verified OLD against the cost-10 hash and hashed NEW

      expect((await client.login(email, OLD)).status).toBe(200); // upgrades the hash to cost 11
      expect(change.done()).toBe(false);
      gate.release();

      expect((await change.response).status).toBe(204);
      await expectPasswordIs(email, NEW, OLD);
    });

    it('a deactivation that commits while a change of password runs bcrypt: 401, the password unchanged', async () => {
      const email = `race${++serial}@x.io`;
      const signup = await client.signup(email, OLD);
      const credential = strategy === 'session' ? { Cookie: signup.headers['set-cookie'] } : { Authorization: `Bearer ${signup.body.access_token}` };
      const gate = hasher.pauseNextHash();
      const change = inFlight(request(t.server).post('/auth/change-password').set(credential).send({ current_password: OLD, new_password: NEW }));
      await gate.entered;

      await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE email = '${email}'`);
      gate.release();

      const response = await change.response;
      expect([response.status, response.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'true' : '1'} WHERE email = '${email}'`);
      await expectPasswordIs(email, OLD, NEW);
    });

    it('a deactivation that commits while the login runs bcrypt: the login issues nothing', async () => {
      const email = await user();
      const gate = hasher.pauseNextVerify();
      const login = inFlight(client.login(email, OLD));
      await gate.entered;

      await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE email = '${email}'`);
      gate.release();

      await expectNoCredentialIssued(await login.response);
    });

    it("an attacker looping logins with the old password keeps no credential through the victim's reset", async () => {
      for (let round = 0; round < 4; round++) {
        const email = await user();
        const token = await client.requestToken(email);
        let resetAnswered = false;
        const obtained: Credentials[] = [];
        const intervals: { start: number; end: number }[] = [];
        const attacker = async () => {
          // Logins go on until one has started after the reset answered.
          for (let startedAfterReset = false; !startedAfterReset; ) {
            startedAfterReset = resetAnswered;
            const start = performance.now();
            const response = await client.login(email, OLD);
            intervals.push({ start, end: performance.now() });
            loginAnswered?.();
            if (response.status === 200) obtained.push(await client.credentialsOf(response));
          }
        };
        const loops = Promise.all([attacker(), attacker(), attacker()]);
        // Let the loops get going, differently each round (counted logins, not time), then reset.
        await loginsCompleted(intervals, round);
        const gate = hasher.pauseNextHash();
        const resetStart = performance.now();
        const reset = inFlight(client.reset(token, NEW));
        // The reset has checked its token and hashed the new password; the attackers' logins go on
        // (and succeed: the old hash is still stored) until three more have answered.
        await gate.entered;
        await loginsCompleted(intervals, intervals.length + 3);
        expect(reset.done()).toBe(false);
        gate.release();
        expect((await reset.response).status).toBe(204);
        const resetEnd = performance.now();
        resetAnswered = true;
        await loops;

        expect(intervals.some(({ start, end }) => start < resetEnd && end > resetStart)).toBe(true);
        for (const credential of obtained) expect(await credential.statuses()).toEqual(strategy === 'session' ? [401] : [401, 401]);
        await expectPasswordIs(email, NEW, OLD);
      }
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import bcrypt from 'bcrypt';
import { AuthEvent } from '#svc/auth';
import { lowCostOf } from '#svc/auth/testing';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const ENGINES = await availableEngines();
const MINUTE = 60_000;
const OLD = 'correct horse';
const NEW = 'battery staple';
const INVALID = { statusCode: 400, error: 'Bad Request', message: 'Reset token is invalid or expired', code: 'RESET_TOKEN_INVALID' };

describe.each(ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'POST /reset-password on %s, %s strategy',
  (engine, strategy) => {
    const behaviourIt = behaviourOnly(engine, it);
    let t: TestApp;
    let client: RecoveryClient;
    let serial = 0;
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, options: recoveryOptions(strategy, { resetTokenTtlMinutes: 30 }) });
      client = new RecoveryClient(t, strategy);
    });
    afterAll(() => t?.close());

    /** A fresh user with password OLD and a mailed reset token. */
    async function userWithToken(): Promise<{ email: string; id: string; token: string }> {
      const email = `user${++serial}@x.io`;
      const created = await client.createUser(email, OLD);
      return { email, id: created.id, token: await client.requestToken(email) };
    }

    behaviourIt('sets the new password: 204, empty body, no credential; the old password fails, the new one works', async () => {
      const { email, token } = await userWithToken();
      const response = await client.reset(token, NEW);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers['set-cookie']).toBeUndefined();

      const old = await client.login(email, OLD);
      expect(old.status).toBe(401);
      expect(old.body.code).toBe('INVALID_CREDENTIALS');
      expect((await client.login(email, NEW)).status).toBe(200);
      const [row] = await t.dataSource.query(`SELECT password_hash FROM users WHERE email = '${email}'`);
      expect(row.password_hash).toMatch(/^\$2b\$04\$/); // cost 10, which the testing kit's hasher makes lowCostOf(10) = 4
      expect(bcrypt.getRounds(row.password_hash)).toBe(lowCostOf(10));
    });

    behaviourIt('works once: the same token again is 400 RESET_TOKEN_INVALID', async () => {
      const { email, token } = await userWithToken();
      expect((await client.reset(token, NEW)).status).toBe(204);
      const again = await client.reset(token, 'third password');
      expect(again.status).toBe(400);
      expect(again.body).toEqual(INVALID);
      expect((await client.login(email, NEW)).status).toBe(200);
    });

    it('of concurrent uses of one token exactly one wins', async () => {
      const { email, token } = await userWithToken();
      await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const changedBefore = t.events.payloadsOf(AuthEvent.PasswordChanged).length;
      const candidates = ['first password', 'second password', 'third password', 'fourth password'];
      const responses = await Promise.all(candidates.map((password) => client.reset(token, password)));
      const statuses = responses.map((response) => response.status);
      expect([...statuses].sort()).toEqual([204, 400, 400, 400]);
      for (const loser of responses.filter((response) => response.status === 400)) expect(loser.body).toEqual(INVALID);

      const winner = candidates[statuses.indexOf(204)];
      for (const password of candidates) expect((await client.login(email, password)).status).toBe(password === winner ? 200 : 401);
      await t.events.waitFor(AuthEvent.PasswordChanged, changedBefore + 1);
      expect(t.events.payloadsOf(AuthEvent.PasswordChanged)).toHaveLength(changedBefore + 1);
    });

    behaviourIt('an expired token is refused; one still inside its lifetime works', async () => {
      const late = await userWithToken();
      const onTime = await userWithToken();
      t.clock.advance(30 * MINUTE - 1);
      expect((await client.reset(onTime.token, NEW)).status).toBe(204);
      t.clock.advance(1);
      const response = await client.reset(late.token, NEW);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(INVALID);
      expect((await client.login(late.email, OLD)).status).toBe(200);
    });

    behaviourIt('a superseded token is refused; the newest one works', async () => {
      const { email, token: older } = await userWithToken();
      const newer = await client.requestToken(email);
      const response = await client.reset(older, NEW);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(INVALID);
      expect((await client.reset(newer, NEW)).status).toBe(204);
    });

    behaviourIt('an unknown token is refused', async () => {
      const response = await client.reset('A'.repeat(43), NEW);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(INVALID);
    });

    behaviourIt('ends every credential of the user, and only of that user', async () => {
      const { email, token } = await userWithToken();
      const first = await client.loginFor(email, OLD);
      const second = await client.loginFor(email, OLD);
      const bystanderEmail = `bystander${++serial}@x.io`;
      await client.signup(bystanderEmail, OLD);
      const bystander = await client.loginFor(bystanderEmail, OLD);
      const working = strategy === 'session' ? [200] : [200, 200];
      // Before: /me only, so the jwt refresh token below is presented for the first time after the reset.
      expect(await first.me()).toBe(200);
      expect(await second.me()).toBe(200);
      expect((await client.reset(token, NEW)).status).toBe(204);

      const revoked = strategy === 'session' ? [401] : [401, 401];
      expect(await first.statuses()).toEqual(revoked);
      expect(await second.statuses()).toEqual(revoked);
      expect(await bystander.statuses()).toEqual(working);
    });

    behaviourIt('a password that breaks the rules is refused and leaves the token usable', async () => {
      const { token } = await userWithToken();
      const short = await client.reset(token, 'short');
      expect(short.status).toBe(400);
      expect(short.body.code).toBe('VALIDATION_FAILED');
      const long = await client.reset(token, 'é'.repeat(37)); // 74 bytes in UTF-8
      expect(long.status).toBe(400);
      expect(long.body.code).toBe('VALIDATION_FAILED');
      expect((await client.reset(token, NEW)).status).toBe(204);
    });

    behaviourIt("refuses an inactive user's token and changes nothing", async () => {
      const { email, id, token } = await userWithToken();
      await t.dataSource.query(`UPDATE users SET is_active = false WHERE id = '${id}'`);
      const response = await client.reset(token, NEW);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(INVALID);
      await t.dataSource.query(`UPDATE users SET is_active = true WHERE id = '${id}'`);
      expect((await client.login(email, OLD)).status).toBe(200);
    });

    behaviourIt('after a reset no older reset token of the user stays usable', async () => {
      const { email, id, token } = await userWithToken();
      expect((await client.reset(token, NEW)).status).toBe(204);
      const rows = await t.dataSource.query(`SELECT used_at FROM password_reset_tokens WHERE user_id = '${id}'`);
      expect(rows).toHaveLength(1);
      expect(rows[0].used_at).not.toBeNull();
      expect((await client.login(email, NEW)).status).toBe(200);
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { availableEngines, behaviourOnly, BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL, createTestApp, type TestApp } from '../../support/test-app.js';
import { eventually } from '../../support/eventually.js';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../recovery-client.js';

const ENGINES = await availableEngines();
const MINUTE = 60_000;
const PASSWORD = 'correct horse';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))(
  'POST /forgot-password on %s, %s strategy',
  (engine, strategy) => {
    const behaviourIt = behaviourOnly(engine, it);
    let t: TestApp;
    let client: RecoveryClient;
    beforeAll(async () => {
      t = await createTestApp({ engine, strategy, options: recoveryOptions(strategy, { resetTokenTtlMinutes: 15 }) });
      client = new RecoveryClient(t, strategy);
    });
    afterAll(() => t?.close());

    const tokenRows = (userId: string) => t.dataSource.query(`SELECT * FROM password_reset_tokens WHERE user_id = '${userId}'`);

    behaviourIt('answers known, unknown and inactive emails with the same 202 and an empty body', async () => {
      await client.signup('known@x.io', PASSWORD);
      await client.signup('sleeping@x.io', PASSWORD);
      await t.dataSource.query(`UPDATE users SET is_active = false WHERE email = 'sleeping@x.io'`);

      const responses = [
        await client.forgot('known@x.io'),
        await client.forgot('nobody@x.io'),
        await client.forgot('sleeping@x.io'),
        await client.forgot('  Known@X.io '),
      ];
      const shapes = responses.map((response) => {
        const { date: _date, ...headers } = response.headers;
        return { status: response.status, text: response.text, headers };
      });
      expect(shapes[0]).toMatchObject({ status: 202, text: '' });
      expect(shapes[0].headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      for (const shape of shapes.slice(1)) expect(shape).toEqual(shapes[0]);
      // The work after these answers (mails to known@x.io) ends here, not in the next test.
      await t.afterResponses();
    });

    behaviourIt('stores only the SHA-256 of the mailed token, with the configured lifetime, and announces it', async () => {
      const user = await client.createUser('mail@x.io', PASSWORD);
      const token = await client.requestToken('mail@x.io');
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url

      const event = client.resetEvents().filter((announced) => announced.user.email === 'mail@x.io').at(-1)!;
      // The link to mail, built like the verification links: `<baseUrl><password.resetPath>?token=` (default '/reset-password').
      expect(event).toEqual({ user, token, link: `${BASE_URL}/reset-password?token=${token}`, expiresAt: new Date(t.clock.now().getTime() + 15 * MINUTE) });
      expect(Object.keys(event.user).sort()).toEqual(['displayName', 'email', 'id', 'plan']);

      const rows = await tokenRows(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toBe(sha256(token));
      expect(rows[0].used_at).toBeNull();
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    behaviourIt('a new request supersedes the older unused token in the same transaction', async () => {
      const user = await client.createUser('again@x.io', PASSWORD);
      const first = await client.requestToken('again@x.io');
      const second = await client.requestToken('again@x.io');
      expect(second).not.toBe(first);
      const rows = await tokenRows(user.id);
      expect(rows.map((row: { token_hash: string }) => row.token_hash)).toEqual([sha256(second)]);
    });

    it('concurrent requests for one user leave exactly one usable token', async () => {
      const user = await client.createUser('burst@x.io', PASSWORD);
      const responses = await Promise.all(Array.from({ length: 5 }, () => client.forgot('burst@x.io')));
      expect(responses.map((response) => response.status)).toEqual([202, 202, 202, 202, 202]);
      // Each event fires after its transaction committed: the five are all in.
      await eventually('five reset tokens', () => client.tokensMailedTo('burst@x.io').length === 5);
      const rows = await tokenRows(user.id);
      expect(rows).toHaveLength(1);
      expect(client.tokensMailedTo('burst@x.io').map(sha256)).toContain(rows[0].token_hash);
    });

    behaviourIt('an unknown or inactive email stores nothing and announces nothing', async () => {
      await client.signup('dormant@x.io', PASSWORD);
      await t.dataSource.query(`UPDATE users SET is_active = false WHERE email = 'dormant@x.io'`);
      const before = await t.dataSource.query('SELECT COUNT(*) AS n FROM password_reset_tokens');
      expect((await client.forgot('ghost@x.io')).status).toBe(202);
      expect((await client.forgot('dormant@x.io')).status).toBe(202);
      // A known email's event after them: on SQLite the work runs in order, on PostgreSQL nearly so.
      await client.signup('witness@x.io', PASSWORD);
      await client.requestToken('witness@x.io');
      const after = await t.dataSource.query('SELECT COUNT(*) AS n FROM password_reset_tokens');
      expect(Number(after[0].n)).toBe(Number(before[0].n) + 1);
      expect(client.tokensMailedTo('ghost@x.io')).toEqual([]);
      expect(client.tokensMailedTo('dormant@x.io')).toEqual([]);
    });

    behaviourIt('refuses a body that is not { email } with 400 VALIDATION_FAILED', async () => {
      const response = await client.forgot(42 as unknown as string);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      const extra = await request(t.server).post('/auth/forgot-password').send({ email: 'a@x.io', admin: true });
      expect(extra.status).toBe(400);
      expect(extra.body.code).toBe('VALIDATION_FAILED');
    });
  },
);

describe.each(BEHAVIOUR_ENGINES)('forgot-password work after the response, on %s', (engine) => {
  it('is finished before the application closes: no event lost, none for unknown emails', async () => {
    const t = await createTestApp({ engine, options: recoveryOptions('session') });
    const client = new RecoveryClient(t, 'session');
    await client.signup('closing@x.io', PASSWORD);
    await client.forgot('unknown@x.io');
    await client.forgot('closing@x.io');
    await t.close(); // waits for the work the responses left behind
    expect(t.events.payloadsOf(AuthEvent.PasswordResetRequested).map((event) => (event.user as { email: string }).email)).toEqual(['closing@x.io']);
  });
});

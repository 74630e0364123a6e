import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { cookieOf, type RawRequest } from '../../support/raw-http.js';
import { createFaultApp, databaseNameOf, type FaultApp, PASSWORD } from '../support/fault-app.js';
import { expectServiceUnavailable, within } from '../support/fault-checks.js';
import { PostgresSaboteur } from '../support/postgres-saboteur.js';
import { describeOnPostgres } from '../support/required-services.js';

type Strategy = 'session' | 'jwt';

/** A request that writes, the statement at which its connection is killed, and what it gets once the database is whole. */
interface KilledOperation {
  name: string;
  strategies: Strategy[];
  blocked: { table: string; event: 'INSERT' | 'UPDATE' };
  /** Makes what the request needs (an account, a token) and returns the request. */
  prepare(app: FaultApp, email: string): Promise<RawRequest>;
  recoveredStatus: number;
}

const NEW_PASSWORD = 'a new password 1';

const OPERATIONS: KilledOperation[] = [
  {
    name: 'signup, killed while inserting its credential (the user row is already staged)',
    strategies: ['session', 'jwt'],
    blocked: { table: 'SESSION_OR_REFRESH', event: 'INSERT' },
    prepare: async (app, email) => app.post('/auth/signup', { email, password: PASSWORD }),
    recoveredStatus: 201,
  },
  {
    name: 'login presenting an older credential, killed while inserting the new one',
    strategies: ['session', 'jwt'],
    blocked: { table: 'SESSION_OR_REFRESH', event: 'INSERT' },
    prepare: async (app, email) => {
      const account = await app.signup(email);
      return app.post('/auth/login', { email, password: PASSWORD }, { Cookie: `${app.cookieName}=${account.cookie}` });
    },
    recoveredStatus: 200,
  },
  {
    name: 'refresh, killed after consuming the token, while inserting its successor',
    strategies: ['jwt'],
    blocked: { table: 'refresh_tokens', event: 'INSERT' },
    prepare: async (app, email) => {
      const account = await app.signup(email);
      return app.post('/auth/refresh', undefined, { Cookie: `svc_refresh=${account.cookie}` });
    },
    recoveredStatus: 200,
  },
  {
    name: 'reset-password, killed after consuming the token, while updating the password hash',
    strategies: ['session', 'jwt'],
    blocked: { table: 'users', event: 'UPDATE' },
    prepare: async (app, email) => {
      await app.signup(email);
      return app.post('/auth/reset-password', { token: await app.resetTokenFor(email), password: NEW_PASSWORD });
    },
    recoveredStatus: 204,
  },
];

await describeOnPostgres('PostgreSQL connection killed in the middle of a request (docs/decisions/0003-transactions.md)', () => {
  describe.each(['session', 'jwt'] as Strategy[])('%s strategy', (strategy) => {
    let app: FaultApp;
    let saboteur: PostgresSaboteur;
    beforeAll(async () => {
      app = await createFaultApp({ engine: 'postgres', strategy });
      saboteur = await PostgresSaboteur.connect(databaseNameOf(app));
    });
    afterAll(async () => {
      await saboteur?.close();
      await app?.close();
    });

    const operations = OPERATIONS.filter((operation) => operation.strategies.includes(strategy));

    it.each(operations.map((operation) => [operation.name, operation] as const))(
      '%s: 503 with the error body, no cookie, nothing half-written; the same request succeeds afterwards',
      async (_name, operation) => {
        const email = `killed-${randomBytes(4).toString('hex')}@fault.test`;
        const table = operation.blocked.table === 'SESSION_OR_REFRESH' ? (strategy === 'session' ? 'sessions' : 'refresh_tokens') : operation.blocked.table;
        const lockKey = randomBytes(4).readInt32BE();
        const request = await operation.prepare(app, email);
        const before = await app.rows();

        await saboteur.blockWrites(table, operation.blocked.event, lockKey);
        let response;
        try {
          const pending = app.send(request);
          const waiting = await saboteur.waitingBackend();
          expect(waiting.query).toMatch(new RegExp(`^${operation.blocked.event} .*"?${table}"?`, 'i'));
          await saboteur.terminate(waiting.pid);
          response = await within(5000, 'the request whose connection was killed', pending);
        } finally {
          await saboteur.unblock(table, lockKey);
        }

        expectServiceUnavailable(response);
        expect(await app.rows()).toEqual(before);
        expect(await app.t.dataSource.query(`SELECT id FROM users WHERE email = $1`, [email])).toHaveLength(operation.name.startsWith('signup') ? 0 : 1);
        expect(app.logger.withStackFrames()).toEqual([]);

        const again = await app.send(request);
        expect(again.status).toBe(operation.recoveredStatus);
        if (operation.recoveredStatus !== 204) expect(cookieOf(again, app.cookieName)).toEqual(expect.any(String));
        if (operation.name.startsWith('reset-password')) {
          expect((await app.send(app.post('/auth/login', { email, password: NEW_PASSWORD }))).status).toBe(200);
        }
      },
      30_000,
    );
  });
});

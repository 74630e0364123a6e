import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freshDatabase } from '../../support/engines.js';
import { cookieOf, type RawRequest, type RawResponse } from '../../support/raw-http.js';
import { type Account, createFaultApp, type FaultApp, PASSWORD } from '../support/fault-app.js';
import { expectServiceUnavailable, within } from '../support/fault-checks.js';
import { PostgresRelay } from '../support/postgres-relay.js';
import { PostgresSaboteur } from '../support/postgres-saboteur.js';
import { describeOnPostgres } from '../support/required-services.js';

/** Longer than this and a request to a database that refuses connections is hanging, not failing. */
const PROMPT_MS = 3000;

await describeOnPostgres('PostgreSQL stopped, then back, under a running application (docs/decisions/0003-transactions.md)', () => {
  describe.each(['session', 'jwt'] as const)('%s strategy', (strategy) => {
    let relay: PostgresRelay;
    let app: FaultApp;
    let saboteur: PostgresSaboteur;
    let databaseName: string;

    beforeAll(async () => {
      const database = await freshDatabase('postgres');
      databaseName = new URL((database.options as { url: string }).url).pathname.slice(1);
      relay = await PostgresRelay.start();
      app = await createFaultApp({ engine: 'postgres', strategy, database: { options: { ...database.options, url: relay.url(databaseName) } as never, drop: database.drop } });
      saboteur = await PostgresSaboteur.connect(databaseName);
    });
    afterAll(async () => {
      await relay?.restore();
      await saboteur?.close();
      await app?.close();
      await relay?.close();
    });

    const me = (account: Account): RawRequest =>
      strategy === 'session'
        ? { method: 'GET', path: '/auth/me', headers: { Cookie: `svc_session=${account.cookie}` } }
        : { method: 'GET', path: '/auth/me', headers: { Authorization: `Bearer ${account.access}` } };

    /** Sends `request` and fails if no answer comes within PROMPT_MS. */
    const promptly = async (request: RawRequest): Promise<RawResponse> => {
      const started = Date.now();
      const response = await within(PROMPT_MS, `${request.method} ${request.path} while the database is unreachable`, app.send(request));
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
      return response;
    };

    it('a request waiting inside its transaction when the server goes away: 503, nothing stored', async () => {
      const email = `in-flight-${strategy}@fault.test`;
      const table = strategy === 'session' ? 'sessions' : 'refresh_tokens';
      await saboteur.blockWrites(table, 'INSERT', 7001);
      let response: RawResponse;
      try {
        const pending = app.send(app.post('/auth/signup', { email, password: PASSWORD }));
        await saboteur.waitingBackend();
        await relay.cut();
        response = await within(PROMPT_MS, 'the signup whose connection was cut', pending);
      } finally {
        await saboteur.unblock(table, 7001);
        await relay.restore();
      }
      expectServiceUnavailable(response);
      expect(await saboteur.query('SELECT id FROM users WHERE email = $1', [email])).toEqual([]);
      expect((await app.send(app.post('/auth/signup', { email, password: PASSWORD }))).status).toBe(201);
    });

    it('every endpoint that needs the database answers 503 promptly while it is unreachable, and works again once it is back, without a restart', async () => {
      const account = await app.signup(`before-${strategy}@fault.test`);
      const resetToken = await app.resetTokenFor(account.email);
      const rowsBefore = await app.rows();
      const cookie = { Cookie: `${app.cookieName}=${account.cookie}` };
      const newcomer = `during-${strategy}@fault.test`;

      await relay.cut();
      try {
        const refused: RawRequest[] = [
          me(account),
          app.post('/auth/login', { email: account.email, password: PASSWORD }),
          app.post('/auth/signup', { email: newcomer, password: PASSWORD }),
          app.post('/auth/reset-password', { token: resetToken, password: 'a new password 1' }),
          app.post('/auth/logout', undefined, cookie),
          ...(strategy === 'jwt' ? [app.post('/auth/refresh', undefined, cookie)] : []),
        ];
        for (const request of refused) expectServiceUnavailable(await promptly(request));
        // Documented trade-off (docs/decisions/0014-password-recovery.md): 202 whatever happens next, the failure is logged.
        expect((await promptly(app.post('/auth/forgot-password', { email: account.email }))).status).toBe(202);
      } finally {
        await relay.restore();
      }

      expect(await saboteur.query('SELECT id FROM users WHERE email = $1', [newcomer])).toEqual([]);
      expect(await app.rows()).toEqual(rowsBefore);
      expect((await app.send(me(account))).status).toBe(200);
      const login = await app.send(app.post('/auth/login', { email: account.email, password: PASSWORD }));
      expect(login.status).toBe(200);
      expect(cookieOf(login, app.cookieName)).toEqual(expect.any(String));
      expect((await app.send(app.post('/auth/signup', { email: newcomer, password: PASSWORD }))).status).toBe(201);
      if (strategy === 'jwt') expect((await app.send(app.post('/auth/refresh', undefined, cookie))).status).toBe(200);
      expect((await app.send(app.post('/auth/reset-password', { token: resetToken, password: 'a new password 1' }))).status).toBe(204);
      expect(app.logger.matching('error', 'database unavailable').length).toBeGreaterThan(0);
      expect(app.logger.withStackFrames()).toEqual([]);
    });
  });
});

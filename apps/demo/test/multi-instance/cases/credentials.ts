import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { credentialOf, type Credential, type PasswordStrategy } from '../support/credentials.js';
import { PUBLIC_URL, pairsForSuite } from '../support/demo-pair.js';
import { send } from '../support/http.js';
import { canUsePostgresAndRedis, describeMissingEngines } from '../support/requirements.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'another horse, another battery';
const STRATEGIES: PasswordStrategy[] = ['session', 'jwt'];

const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.io`;

if (await canUsePostgresAndRedis()) {
  // Both strategies' pairs start with the suite's others; the jwt pair is refresh-race's too. The limiter is on, as in production, with room for every request of these tests.
  const limited = { RATE_LIMIT_BACKEND: 'database', RATE_LIMIT_MAX: '1000' };
  const pairs = pairsForSuite({ session: { AUTH_STRATEGY: 'session', ...limited }, jwt: { AUTH_STRATEGY: 'jwt', ...limited } });

  describe.each(STRATEGIES)('two %s instances sharing one database: credentials move between them', (strategy) => {
    let a: string;
    let b: string;

    beforeAll(() => {
      [a, b] = pairs[strategy]!.instances.map((instance) => instance.baseUrl);
    });

    const me = (baseUrl: string, credential: Credential) => send(baseUrl, 'GET', '/auth/me', credential);
    const refresh = (baseUrl: string, credential: Credential) => send(baseUrl, 'POST', '/auth/refresh', { cookies: credential.cookies });

    async function signup(baseUrl: string, email: string): Promise<Credential> {
      const response = await send(baseUrl, 'POST', '/auth/signup', { body: { email, password: PASSWORD } });
      expect(response.status).toBe(201);
      return credentialOf(strategy, response);
    }

    async function login(baseUrl: string, email: string, password = PASSWORD): Promise<Credential> {
      const response = await send(baseUrl, 'POST', '/auth/login', { body: { email, password } });
      expect(response.status).toBe(200);
      return credentialOf(strategy, response);
    }

    it('a credential issued by A works on B, and one issued by B works on A', async () => {
      const email = uniqueEmail('both-ways');
      const fromA = await signup(a, email);
      const onB = await me(b, fromA);
      expect(onB.status).toBe(200);
      expect(onB.body).toMatchObject({ email });
      const fromB = await login(b, email);
      const onA = await me(a, fromB);
      expect(onA.status).toBe(200);
      expect(onA.body).toMatchObject({ email });
      if (strategy === 'jwt') {
        // A refresh cookie from A rotates on B, and what B hands out works on A.
        const rotated = await refresh(b, fromA);
        expect(rotated.status).toBe(200);
        expect((await me(a, credentialOf(strategy, rotated))).status).toBe(200);
      }
    });

    it('logout on A: B refuses the credential on the very next request', async () => {
      const email = uniqueEmail('logout');
      await signup(a, email);
      const credential = await login(a, email);
      expect((await me(b, credential)).status).toBe(200);
      expect((await send(a, 'POST', '/auth/logout', credential)).status).toBe(204);
      expect((await me(b, credential)).status).toBe(401);
      if (strategy === 'jwt') expect((await refresh(b, credential)).status).toBe(401);
    });

    it('a session ended from the device list on A: B refuses it on the very next request, and lists the one left', async () => {
      const email = uniqueEmail('devices');
      const kept = await signup(a, email);
      const ended = await login(b, email);
      const listed = await send(b, 'GET', '/auth/sessions', kept);
      expect(listed.status).toBe(200);
      const entries = listed.body as unknown as { id: string; current: boolean }[];
      expect(entries).toHaveLength(2);
      const endedId = entries.find((entry) => !entry.current)!.id;
      expect((await me(b, ended)).status).toBe(200);

      expect((await send(a, 'DELETE', `/auth/sessions/${endedId}`, kept)).status).toBe(204);
      expect((await me(b, ended)).status).toBe(401);
      if (strategy === 'jwt') expect((await refresh(b, ended)).status).toBe(401);
      const left = await send(b, 'GET', '/auth/sessions', kept);
      expect((left.body as unknown as { id: string }[]).map((entry) => entry.id)).not.toContain(endedId);
      expect((await me(b, kept)).status).toBe(200);
    });

    it('password reset on B: A refuses the old credentials on the very next request, and the old password', async () => {
      const email = uniqueEmail('reset');
      const signedUp = await signup(a, email);
      const loggedIn = await login(a, email);
      const [, instanceB] = pairs[strategy]!.instances;

      expect((await send(b, 'POST', '/auth/forgot-password', { body: { email } })).status).toBe(202);
      const mail = await instanceB.waitForLine('MAIL ', (line) => line.to === email && line.kind === 'password_reset');
      const link = new URL(String(mail.link));
      expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/reset-password`);
      const token = link.searchParams.get('token');
      expect((await send(b, 'POST', '/auth/reset-password', { body: { token, password: NEW_PASSWORD } })).status).toBe(204);

      for (const credential of [signedUp, loggedIn]) {
        expect((await me(a, credential)).status).toBe(401);
        if (strategy === 'jwt') expect((await refresh(a, credential)).status).toBe(401);
      }
      expect((await send(a, 'POST', '/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401);
      expect((await me(a, await login(a, email, NEW_PASSWORD))).body).toMatchObject({ email });
    });
  });
} else {
  describeMissingEngines('two demo instances sharing one database: credentials move between them');
}

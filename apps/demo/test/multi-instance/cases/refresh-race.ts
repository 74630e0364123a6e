import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '../../../../../test/support/eventually.js';
import { credentialOf } from '../support/credentials.js';
import { type DemoPair, pairsForSuite } from '../support/demo-pair.js';
import { send } from '../support/http.js';
import { canUsePostgresAndRedis, describeMissingEngines } from '../support/requirements.js';

const RACERS = 10;

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

if (await canUsePostgresAndRedis()) {
  // Started with the suite's other pairs: the environment of credentials.ts's jwt pair, which is this one.
  const pairs = pairsForSuite({ jwt: { AUTH_STRATEGY: 'jwt', RATE_LIMIT_BACKEND: 'database', RATE_LIMIT_MAX: '1000' } });

  /**
   * The demo keeps `jwt.refreshReuseGraceSeconds` at its default, 0: a refresh token is good for
   * exactly one rotation, and any later presentation is a reuse that revokes its family (RFC 9700
   * §4.14.2). So of one token presented concurrently, one request rotates it and the others, on
   * either instance, are reuses.
   */
  describe('two jwt instances sharing one database: one refresh token raced over both', () => {
    let pair: DemoPair;
    let a: string;
    let b: string;

    beforeAll(() => {
      pair = pairs.jwt!;
      [a, b] = pair.instances.map((instance) => instance.baseUrl);
    });

    it(`${RACERS} concurrent refreshes alternating A/B: exactly one 200; the family is revoked and the reuse reported`, async () => {
      const email = `race-${randomBytes(4).toString('hex')}@example.io`;
      const signup = await send(a, 'POST', '/auth/signup', { body: { email, password: 'correct horse battery' } });
      expect(signup.status).toBe(201);
      const issued = credentialOf('jwt', signup);
      const { sub: userId, sid: familyId } = claimsOf(String(issued.bearer));
      // What the instances print from here on: earlier tests on this pair printed lines of their own.
      const printed = pair.instances.map((instance) => instance.lines.length);

      const responses = await Promise.all(Array.from({ length: RACERS }, (_, i) => send(i % 2 === 0 ? a : b, 'POST', '/auth/refresh', { cookies: issued.cookies })));
      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      const losers = responses.filter((response) => response.status !== 200);
      expect(losers.map((response) => [response.status, response.body?.code])).toEqual(Array(RACERS - 1).fill([401, 'REFRESH_TOKEN_INVALID']));

      // The losers presented a consumed token: the winner's new tokens die with the family, on both instances.
      const winner = credentialOf('jwt', winners[0]);
      expect(claimsOf(String(winner.bearer)).sid).toBe(familyId);
      for (const baseUrl of [a, b]) {
        expect((await send(baseUrl, 'GET', '/auth/me', { bearer: winner.bearer })).status).toBe(401);
        expect((await send(baseUrl, 'POST', '/auth/refresh', { cookies: issued.cookies })).status).toBe(401);
      }
      expect((await send(b, 'POST', '/auth/refresh', { cookies: winner.cookies })).status).toBe(401);

      // Each instance reports the revocations it made; together at least one.
      const reuseEvents = () =>
        pair.instances.flatMap((instance, i) =>
          instance.lines.slice(printed[i]).filter((line) => line.startsWith('EVENT ')).map((line) => JSON.parse(line.slice('EVENT '.length))).filter((event) => event.name === 'svc.token_reuse_detected'),
        );
      await eventually('an instance printed svc.token_reuse_detected', () => reuseEvents().length > 0);
      for (const event of reuseEvents()) expect(event.payload).toMatchObject({ userId, familyId });
    });

    it('the same token presented again later, on the other instance, is a reuse: the tokens rotated from it die too', async () => {
      const email = `replay-${randomBytes(4).toString('hex')}@example.io`;
      const signup = await send(b, 'POST', '/auth/signup', { body: { email, password: 'correct horse battery' } });
      const issued = credentialOf('jwt', signup);
      const rotated = await send(a, 'POST', '/auth/refresh', { cookies: issued.cookies });
      expect(rotated.status).toBe(200);
      const current = credentialOf('jwt', rotated);
      expect((await send(b, 'GET', '/auth/me', { bearer: current.bearer })).status).toBe(200);

      const replay = await send(b, 'POST', '/auth/refresh', { cookies: issued.cookies });
      expect([replay.status, replay.body?.code]).toEqual([401, 'REFRESH_TOKEN_INVALID']);
      const [, instanceB] = pair.instances;
      const event = await instanceB.waitForLine('EVENT ', (line) => line.name === 'svc.token_reuse_detected' && (line.payload as { familyId?: unknown }).familyId === claimsOf(String(issued.bearer)).sid);
      expect(event.payload).toMatchObject({ userId: claimsOf(String(issued.bearer)).sub });
      expect((await send(a, 'GET', '/auth/me', { bearer: current.bearer })).status).toBe(401);
      expect((await send(a, 'POST', '/auth/refresh', { cookies: current.cookies })).status).toBe(401);
    });
  });
} else {
  describeMissingEngines('two jwt instances sharing one database: one refresh token raced over both');
}

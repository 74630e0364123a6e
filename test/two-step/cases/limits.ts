import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { availableEngines } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { createTwoStepApp, type TwoStepApp, type TwoStepUser } from '../two-step-kit.js';

const ENGINES = await availableEngines();
const MAX = 3;
const CEILING = 6;

/** A code of no step of `user`'s secret near now. */
function wrongCodeOf(t: TwoStepApp, user: TwoStepUser): string {
  const near = [-1, 0, 1].map((offset) => t.codeOf(user.secret, offset));
  return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
}

describe.each(ENGINES)('two-step limits on %s (docs/guides/two-step.md)', (engine) => {
  describe('per challenge, without a rateLimit section', () => {
    let t: TwoStepApp;
    beforeAll(async () => {
      t = await createTwoStepApp({ engine, credential: 'session' });
    });
    afterAll(() => t?.close());

    it('five attempts, then the challenge is spent: 429 RATE_LIMITED with Retry-After even for the right code; a new login gets a new one', async () => {
      const user = await t.twoStepUser('per-challenge@x.io');
      const challenge = await t.challenge(user.email);
      for (let i = 0; i < 5; i++) expect((await t.verify(challenge, { code: wrongCodeOf(t, user) })).status).toBe(401);
      const refused = await t.verify(challenge, { code: t.codeOf(user.secret) });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await t.verify(challenge, { recoveryCode: user.recoveryCodes[0] })).status).toBe(429);
      expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret) })).status).toBe(200);
    });

    it('eight concurrent guesses on one challenge: five are looked at, three refused', async () => {
      const user = await t.twoStepUser('concurrent-guesses@x.io');
      const challenge = await t.challenge(user.email);
      const statuses = (await Promise.all(Array.from({ length: 8 }, () => t.verify(challenge, { code: wrongCodeOf(t, user) })))).map((response) => response.status);
      expect(statuses.sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    });
  });

  describe(`per account and address (rateLimit max ${MAX}, accountCeiling ${CEILING}, database backend)`, () => {
    let t: TwoStepApp;
    let logins = 0;
    beforeAll(async () => {
      t = await createTwoStepApp({ engine, credential: 'session', options: { rateLimit: { max: MAX, accountCeiling: CEILING, backend: 'database', trustedIpHeader: 'x-forwarded-for' } } });
    });
    afterAll(() => t?.close());

    /** A challenge from a login on an address of its own (the login's own limit is not what is tested). */
    async function challengeOf(user: TwoStepUser): Promise<string> {
      const login = await request(t.url).post('/auth/login').set('X-Forwarded-For', `198.51.100.${++logins}`).send({ email: user.email, password: 'correct horse battery' });
      expect(login.body.mfaRequired).toBe(true);
      return cookiesOf(login).svc_mfa.value;
    }
    const from = (address: string) => ({ 'X-Forwarded-For': address });

    it(`an address that failed ${MAX} times is refused; an address with no failures signs the owner in`, async () => {
      const user = await t.twoStepUser('per-address@x.io');
      const challenge = await challengeOf(user);
      for (let i = 0; i < MAX; i++) expect((await t.verify(challenge, { code: wrongCodeOf(t, user) }, from('203.0.113.1'))).status).toBe(401);
      const refused = await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('203.0.113.1'));
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect((await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('203.0.113.2'))).status).toBe(200);
    });

    it(`past the account's ceiling (${CEILING} failures from all addresses) an address that failed is refused, one that has not is never`, async () => {
      const user = await t.twoStepUser('ceiling@x.io');
      // One failure each from six addresses, each with its own challenge.
      for (let i = 0; i < CEILING; i++) expect((await t.verify(await challengeOf(user), { code: wrongCodeOf(t, user) }, from(`192.0.2.${i + 1}`))).status).toBe(401);
      const failedBefore = await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('192.0.2.1'));
      expect(failedBefore.status).toBe(429);
      const clean = await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('192.0.2.200'));
      expect(clean.status).toBe(200);
    });

    it('a right code spends nothing of the account: after two failures, the owner signs in from that address', async () => {
      const user = await t.twoStepUser('owner@x.io');
      for (let i = 0; i < MAX - 1; i++) expect((await t.verify(await challengeOf(user), { code: wrongCodeOf(t, user) }, from('203.0.113.60'))).status).toBe(401);
      expect((await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('203.0.113.60'))).status).toBe(200);
      for (let i = 0; i < MAX; i++) {
        t.clock.advance(30_000);
        expect((await t.verify(await challengeOf(user), { code: t.codeOf(user.secret) }, from('203.0.113.50'))).status).toBe(200);
      }
    });
  });
});

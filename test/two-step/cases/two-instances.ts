import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { canUsePostgres } from '../../support/engines.js';
import { describeNotRun } from '../../support/not-run.js';
import { TestClock } from '../../support/test-app.js';
import { createTwoStepApp, lastingDatabase, type TwoStepApp } from '../two-step-kit.js';

const ON_POSTGRES = await canUsePostgres();
const CREDENTIALS = ['session', 'jwt'] as const;

/** Two instances of one application on one PostgreSQL database, as behind a load balancer, with one clock. */
if (!ON_POSTGRES) describeNotRun('two instances on one PostgreSQL database', 'PostgreSQL is unreachable');
else describe.each(CREDENTIALS)('two %s instances on one PostgreSQL database (docs/guides/two-step.md)', (credential) => {
  let a: TwoStepApp;
  let b: TwoStepApp;
  let drop: () => Promise<void>;
  let serial = 0;
  const nextEmail = () => `instances${++serial}@x.io`;
  beforeAll(async () => {
    const database = await lastingDatabase('postgres');
    drop = database.drop;
    const clock = new TestClock();
    // The database limiter, as several instances need: counters shared through the database.
    const options = { rateLimit: { max: 1000, backend: 'database' as const } };
    a = await createTwoStepApp({ engine: 'postgres', credential, clock, database: database.forEach, options });
    b = await createTwoStepApp({ engine: 'postgres', credential, clock, database: database.forEach, options });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('a code used on one instance is refused on the other in its step (the used step is stored, not remembered)', async () => {
    const user = await a.twoStepUser(nextEmail());
    const code = a.codeOf(user.secret);
    expect((await a.verify(await a.challenge(user.email), { code })).status).toBe(200);
    const replay = await b.verify(await b.challenge(user.email), { code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('MFA_CODE_INVALID');
  });

  it('a challenge that signed in on one instance is refused on the other: 401 MFA_CHALLENGE_INVALID, with a code of the next step too', async () => {
    const user = await a.twoStepUser(nextEmail());
    const challenge = await a.challenge(user.email);
    expect((await a.verify(challenge, { code: a.codeOf(user.secret) })).status).toBe(200);
    const replay = await b.verify(challenge, { code: b.codeOf(user.secret, 1) });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('MFA_CHALLENGE_INVALID');
  });

  it('one challenge sent to both instances at once, each with its own recovery code, signs in once', async () => {
    const user = await a.twoStepUser(nextEmail());
    const challenge = await a.challenge(user.email);
    const answers = await Promise.all([a.verify(challenge, { recoveryCode: user.recoveryCodes[0] }), b.verify(challenge, { recoveryCode: user.recoveryCodes[1] })]);
    expect(answers.map((answer) => [answer.status, answer.body.code]).sort()).toEqual([
      [200, undefined],
      [401, 'MFA_CHALLENGE_INVALID'],
    ]);
  });

  it('one code sent to both instances at once signs in once', async () => {
    const user = await a.twoStepUser(nextEmail());
    const [onA, onB] = await Promise.all([a.challenge(user.email), b.challenge(user.email)]);
    const code = a.codeOf(user.secret);
    const statuses = (await Promise.all([a.verify(onA, { code }), b.verify(onB, { code }), a.verify(onA, { code }), b.verify(onB, { code })])).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 401, 401, 401]);
  });

  it("a recovery code spent on one instance is spent on the other; a challenge from one is answered on the other", async () => {
    const user = await a.twoStepUser(nextEmail());
    expect((await b.verify(await a.challenge(user.email), { recoveryCode: user.recoveryCodes[0] })).status).toBe(200);
    expect((await a.verify(await b.challenge(user.email), { recoveryCode: user.recoveryCodes[0] })).status).toBe(401);
  });

  it('the failures of one challenge are counted across instances: five in all, then 429 on either', async () => {
    const user = await a.twoStepUser(nextEmail());
    const challenge = await a.challenge(user.email);
    const near = [-1, 0, 1].map((offset) => a.codeOf(user.secret, offset));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
    for (const instance of [a, b, a, b, a]) expect((await instance.verify(challenge, { code: wrong })).status).toBe(401);
    expect((await b.verify(challenge, { code: a.codeOf(user.secret) })).status).toBe(429);
  });
});

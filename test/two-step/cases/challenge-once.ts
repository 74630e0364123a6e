import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { createTwoStepApp, engineCredentialPairs, STEP_MS, type TwoStepApp } from '../two-step-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());
const CHALLENGE_INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Two-step login challenge is invalid or expired; log in again', code: 'MFA_CHALLENGE_INVALID' };

/** docs/guides/two-step.md: a challenge signs in once (RFC 6238 §5.2, OWASP ASVS 5.0 V6). */
describe.each(PAIRS)('a two-step challenge is used once on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: TwoStepApp;
  let serial = 0;
  const nextEmail = () => `once${++serial}@x.io`;
  beforeAll(async () => {
    t = await createTwoStepApp({ engine, credential });
  });
  afterAll(() => t?.close());

  behaviourIt('after a sign-in, the same challenge is 401 MFA_CHALLENGE_INVALID with any code of its window, and the cookie is cleared; those codes still sign in with a new challenge', async () => {
    const user = await t.twoStepUser(nextEmail());
    // The step before this one must be later than the enabling code's.
    t.clock.advance(STEP_MS);
    const challenge = await t.challenge(user.email);
    expect((await t.verify(challenge, { code: t.codeOf(user.secret, -1) })).status).toBe(200);
    for (const answer of [{ code: t.codeOf(user.secret, 0) }, { code: t.codeOf(user.secret, 1) }, { recoveryCode: user.recoveryCodes[0] }]) {
      const replay = await t.verify(challenge, answer);
      expect([replay.status, replay.body]).toEqual([401, CHALLENGE_INVALID]);
      expect(cookiesOf(replay).svc_mfa.value).toBe('');
    }
    // The refused answers spent nothing: the code and the recovery code still sign in once each.
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, 0) })).status).toBe(200);
    expect((await t.verify(await t.challenge(user.email), { recoveryCode: user.recoveryCodes[0] })).status).toBe(200);
  });

  behaviourIt('a wrong code does not spend the challenge: the right one then signs in with it', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    const right = t.codeOf(user.secret);
    const near = [-1, 0, 1].map((offset) => t.codeOf(user.secret, offset));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
    expect((await t.verify(challenge, { code: wrong })).body.code).toBe('MFA_CODE_INVALID');
    expect((await t.verify(challenge, { recoveryCode: 'abcd-efgh-jkmn-pqrs-tuvw-xyz2' })).body.code).toBe('MFA_CODE_INVALID');
    expect((await t.verify(challenge, { code: right })).status).toBe(200);
  });

  it('two verifications of one challenge at once, each with its own right answer: one 200 and one 401 MFA_CHALLENGE_INVALID, one credential', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    const answers = await Promise.all([t.verify(challenge, { recoveryCode: user.recoveryCodes[0] }), t.verify(challenge, { recoveryCode: user.recoveryCodes[1] })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.find((answer) => answer.status === 401)!.body).toEqual(CHALLENGE_INVALID);
    // The loser's recovery code is not spent: its transaction rolled back, or it was refused before the code was looked at.
    expect((await t.rows('mfa_recovery_codes', user.userId)).filter((row) => row.used_at !== null)).toHaveLength(1);
    const credentials = credential === 'session' ? await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = '${user.userId}'`) : await t.dataSource.query(`SELECT id FROM refresh_families WHERE user_id = '${user.userId}'`);
    // The signup's credential and the one the challenge gave.
    expect(credentials).toHaveLength(2);
  });

  it('two verifications of one challenge at once with the codes of two steps: one signs in', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    const answers = await Promise.all([t.verify(challenge, { code: t.codeOf(user.secret, 0) }), t.verify(challenge, { code: t.codeOf(user.secret, 1) })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });
});

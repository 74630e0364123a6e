import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { AuthEvent } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { cookiesOf, TEST_SECRET } from '../../support/test-app.js';
import { createTwoStepApp, engineCredentialPairs, sha256, STEP_MS, type TwoStepApp } from '../two-step-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());
const CODE_INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Code is invalid', code: 'MFA_CODE_INVALID' };
const CHALLENGE_INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Two-step login challenge is invalid or expired; log in again', code: 'MFA_CHALLENGE_INVALID' };

describe.each(PAIRS)('two-step codes on %s, %s credential (docs/guides/two-step.md)', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: TwoStepApp;
  let serial = 0;
  const nextEmail = () => `codes${++serial}@x.io`;
  beforeAll(async () => {
    t = await createTwoStepApp({ engine, credential });
  });
  afterAll(() => t?.close());

  behaviourIt('a code is accepted once in its step: the same code again, with a new challenge, is 401 (replay) and svc.mfa.failure says so', async () => {
    const user = await t.twoStepUser(nextEmail());
    const code = t.codeOf(user.secret);
    expect((await t.verify(await t.challenge(user.email), { code })).status).toBe(200);
    const replay = await t.verify(await t.challenge(user.email), { code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(CODE_INVALID);
    expect(replay.headers['set-cookie']).toBeUndefined();
    const failures = (await t.delivered(AuthEvent.MfaFailure)).filter((event) => event.userId === user.userId);
    expect(failures).toEqual([{ userId: user.userId, step: 'verify', method: 'totp', reason: 'replayed_code', ip: '127.0.0.1', at: t.clock.now() }]);
    // An earlier step's code is refused too once a later one was used; the next step's works.
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, -1) })).status).toBe(401);
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, 1) })).status).toBe(200);
  });

  it('of concurrent verifications with one code exactly one signs in', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenges = await Promise.all([1, 2, 3, 4].map(() => t.challenge(user.email)));
    const code = t.codeOf(user.secret);
    const statuses = (await Promise.all(challenges.map((challenge) => t.verify(challenge, { code })))).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 401, 401, 401]);
  });

  behaviourIt('accepts the codes of the step before and after (±1, RFC 6238 §5.2), not two steps away', async () => {
    const user = await t.twoStepUser(nextEmail());
    // The step before this one must be later than the enabling code's.
    t.clock.advance(STEP_MS);
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, 2) })).status).toBe(401);
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, -1) })).status).toBe(200);
    t.clock.advance(STEP_MS);
    expect((await t.verify(await t.challenge(user.email), { code: t.codeOf(user.secret, 1) })).status).toBe(200);
  });

  behaviourIt('a recovery code signs in once, in any case and grouping; svc.mfa.recovery_code_used says how many are left', async () => {
    const user = await t.twoStepUser(nextEmail());
    const [first, second] = user.recoveryCodes;
    const verified = await t.verify(await t.challenge(user.email), { recoveryCode: first.toUpperCase().replace(/-/g, ' ') });
    expect(verified.status).toBe(200);
    expect((await t.me(t.held(verified))).body.email).toBe(user.email);
    expect((await t.delivered(AuthEvent.MfaRecoveryCodeUsed)).filter((event) => event.userId === user.userId)).toEqual([{ userId: user.userId, remaining: 9, at: t.clock.now() }]);
    const again = await t.verify(await t.challenge(user.email), { recoveryCode: first });
    expect(again.status).toBe(401);
    expect(again.body).toEqual(CODE_INVALID);
    expect((await t.verify(await t.challenge(user.email), { recoveryCode: second })).status).toBe(200);
    const rows = await t.rows('mfa_recovery_codes', user.userId);
    expect(rows.filter((row) => row.used_at !== null)).toHaveLength(2);
  });

  it('of concurrent uses of one recovery code exactly one signs in', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenges = await Promise.all([1, 2, 3].map(() => t.challenge(user.email)));
    const statuses = (await Promise.all(challenges.map((challenge) => t.verify(challenge, { recoveryCode: user.recoveryCodes[0] })))).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 401, 401]);
  });

  behaviourIt('a wrong code or a wrong recovery code: 401 MFA_CODE_INVALID, no credential, svc.mfa.failure without the code; the challenge still stands', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    const right = t.codeOf(user.secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const wrongCode = await t.verify(challenge, { code: wrong });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body).toEqual(CODE_INVALID);
    const wrongRecovery = await t.verify(challenge, { recoveryCode: 'aaaa-bbbb-cccc-dddd-eeee-ffff' });
    expect(wrongRecovery.status).toBe(401);
    expect(wrongRecovery.body).toEqual(CODE_INVALID);
    for (const response of [wrongCode, wrongRecovery]) {
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const failures = (await t.delivered(AuthEvent.MfaFailure)).filter((event) => event.userId === user.userId);
    expect(failures.map((event) => [event.method, event.reason])).toEqual([
      ['totp', 'wrong_code'],
      ['recovery_code', 'wrong_code'],
    ]);
    expect(JSON.stringify(failures)).not.toContain(wrong);
    expect(JSON.stringify(failures)).not.toContain('aaaa');
    expect((await t.verify(challenge, { code: right })).status).toBe(200);
  });

  behaviourIt('no challenge, an expired one (by the injected clock), a forged one: 401 MFA_CHALLENGE_INVALID, the cookie cleared', async () => {
    const user = await t.twoStepUser(nextEmail());
    const none = await t.verify(undefined, { code: t.codeOf(user.secret) });
    expect(none.status).toBe(401);
    expect(none.body).toEqual(CHALLENGE_INVALID);

    const challenge = await t.challenge(user.email);
    t.clock.advance(299_000);
    const claims = JSON.parse(Buffer.from(challenge.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({ sub: user.userId, jti: expect.any(String), mth: 'password', pwb: expect.any(String), iat: expect.any(Number), exp: expect.any(Number) });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(300);
    t.clock.advance(2_000);
    const expired = await t.verify(challenge, { code: t.codeOf(user.secret) });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(CHALLENGE_INVALID);
    expect(cookiesOf(expired).svc_mfa.value).toBe('');

    // The same claims signed with the module secret itself (not the challenge's derived key), or with a change of a character.
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const forged = await new SignJWT({ ...claims, iat: now, exp: now + 300 })
      .setProtectedHeader({ alg: 'HS256', typ: 'svc-mfa-challenge+jwt' })
      .sign(new TextEncoder().encode(TEST_SECRET));
    const fresh = await t.challenge(user.email);
    // The signature's next-to-last character changed (its last carries padding bits too): always another character.
    const tampered = `${fresh.slice(0, -2)}${fresh.at(-2) === 'A' ? 'B' : 'A'}${fresh.at(-1)}`;
    for (const token of [forged, tampered, 'garbage']) {
      const response = await t.verify(token, { code: t.codeOf(user.secret) });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(CHALLENGE_INVALID);
    }
    expect((await t.verify(fresh, { code: t.codeOf(user.secret) })).status).toBe(200);
  });

  behaviourIt('a user deactivated between the password and the code gets no credential: 401 MFA_CHALLENGE_INVALID', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE id = '${user.userId}'`);
    const response = await t.verify(challenge, { code: t.codeOf(user.secret) });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(CHALLENGE_INVALID);
    expect(Object.keys(cookiesOf(response))).toEqual(['svc_mfa']);
  });

  behaviourIt('the challenge cookie is a cookie credential: a verification from another origin is 403 CSRF_REJECTED', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    const response = await t.verify(challenge, { code: t.codeOf(user.secret) }, { Origin: 'https://evil.test' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('CSRF_REJECTED');
    expect((await t.verify(challenge, { code: t.codeOf(user.secret) }, { Origin: 'http://app.test' })).status).toBe(200);
  });

  behaviourIt('the body: exactly one of code (6 digits) and recoveryCode', async () => {
    const user = await t.twoStepUser(nextEmail());
    const challenge = await t.challenge(user.email);
    for (const body of [{}, { code: 123456 }, { code: '12345' }, { code: '1234567' }, { code: t.codeOf(user.secret), recoveryCode: user.recoveryCodes[0] }, { token: 'x' }]) {
      const response = await t.verify(challenge, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });

  behaviourIt('stores the secret encrypted: neither its base32 nor its bytes are in the row, which changes with every setup', async () => {
    const email = nextEmail();
    const held = await t.signup(email);
    const setup = await t.setup(held);
    const userId = (await t.me(held)).body.id;
    const [row] = await t.rows('mfa_totp', userId);
    const { fromBase32 } = await import('../rfc6238.js');
    const bytes = fromBase32(setup.body.secret);
    const stored = JSON.stringify(row);
    for (const form of [setup.body.secret, setup.body.secret.toLowerCase(), bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('latin1')]) {
      expect(stored).not.toContain(form);
    }
    expect(row).toMatchObject({ user_id: userId, key_id: expect.stringMatching(/^[0-9a-f]{16}$/), enabled_at: null, last_used_step: null });
    // 12-byte IV, 20-byte secret, 16-byte tag.
    expect(Buffer.from(String(row.secret_ciphertext), 'base64url')).toHaveLength(48);
    await t.setup(held);
    const [again] = await t.rows('mfa_totp', userId);
    expect(again.secret_ciphertext).not.toBe(row.secret_ciphertext);
    expect(JSON.stringify(await t.rows('mfa_recovery_codes', userId))).toBe('[]');
  });

  behaviourIt('stores recovery codes as their SHA-256 only', async () => {
    const user = await t.twoStepUser(nextEmail());
    const rows = await t.rows('mfa_recovery_codes', user.userId);
    expect(rows.map((row) => row.code_hash).sort()).toEqual(user.recoveryCodes.map((code) => sha256(code.replace(/-/g, ''))).sort());
    const stored = JSON.stringify(rows);
    for (const code of user.recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, '').slice(0, 8));
  });
});

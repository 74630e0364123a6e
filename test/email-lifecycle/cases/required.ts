import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { PasswordHasher } from '#svc/auth/testing';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { CountingPasswordHasher } from '../counting-password-hasher.js';
import { createEmailApp, type EmailApp, engineCredentialPairs, PASSWORD } from '../email-kit.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);
const NOT_VERIFIED = { statusCode: 403, error: 'Forbidden', message: 'Verify your email before you log in', code: 'EMAIL_NOT_VERIFIED' };
const INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' };

describe.each(PAIRS)('emailVerification.required on %s, %s credential', (engine, credential) => {
  let t: EmailApp;
  let serial = 0;
  const nextEmail = () => `required${++serial}@x.io`;
  beforeAll(async () => {
    t = await createEmailApp({ engine, credential, emailVerification: { required: true }, overrides: [{ provide: PasswordHasher, useClass: CountingPasswordHasher }] });
  });
  afterAll(() => t?.close());

  /** The bcrypt comparisons `send` costs. */
  async function comparisonsOf(send: () => Promise<unknown>): Promise<number> {
    const hasher = t.app.get(PasswordHasher) as CountingPasswordHasher;
    const before = hasher.comparisons;
    await send();
    return hasher.comparisons - before;
  }

  /** A signed-up user whose email is not verified, and its mailed token. */
  async function unverified(): Promise<{ email: string; id: string; token: string }> {
    const email = nextEmail();
    const response = await t.signup(email);
    expect(response.status).toBe(201);
    return { email, id: response.body.id, token: await t.verificationTokenOf(email) };
  }

  it('signup answers 201 with the user body only: no cookie, no token; the verification link is mailed', async () => {
    const email = nextEmail();
    const response = await t.signup(email);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(String), email, displayName: null, plan: 'free', emailVerified: false });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.verificationTokenOf(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.dataSource.query(`SELECT id FROM ${credential === 'session' ? 'sessions' : 'refresh_tokens'} WHERE user_id = '${response.body.id}'`)).toEqual([]);
  });

  it('the right password of an unverified user is 403 EMAIL_NOT_VERIFIED, no credential, after the same bcrypt work as a wrong one', async () => {
    const { email, id } = await unverified();
    let refused: Awaited<ReturnType<EmailApp['login']>> | undefined;
    expect(await comparisonsOf(async () => (refused = await t.login(email)))).toBe(1);
    expect(refused!.status).toBe(403);
    expect(refused!.body).toEqual(NOT_VERIFIED);
    expect(refused!.headers['set-cookie']).toBeUndefined();

    let wrong: Awaited<ReturnType<EmailApp['login']>> | undefined;
    expect(await comparisonsOf(async () => (wrong = await t.login(email, 'wrong horse battery')))).toBe(1);
    expect(wrong!.status).toBe(401);
    expect(wrong!.body).toEqual(INVALID);
    const unknown = await t.login(`nobody-${email}`);
    expect(unknown.body).toEqual(INVALID);

    const failures = (await t.delivered(AuthEvent.LoginFailure)).filter((event) => event.email === email).map((event) => event.reason);
    expect(failures).toEqual(['email_not_verified', 'bad_password']);
    expect(await t.dataSource.query(`SELECT id FROM ${credential === 'session' ? 'sessions' : 'refresh_tokens'} WHERE user_id = '${id}'`)).toEqual([]);
  });

  it('once the email is verified, the same login signs in', async () => {
    const { email, token } = await unverified();
    expect((await t.verify(token)).status).toBe(204);
    const response = await t.login(email);
    expect(response.status).toBe(200);
    expect((await t.me(await t.held(response))).body).toMatchObject({ email, emailVerified: true });
  });

  it('a password reset verifies the email too (the link reached its mailbox): the way in when the first message is lost', async () => {
    const { email, id } = await unverified();
    expect((await request(t.url).post('/auth/forgot-password').send({ email })).status).toBe(202);
    const [reset] = (await t.delivered(AuthEvent.PasswordResetRequested)).filter((event) => event.user.email === email);
    const newPassword = `${PASSWORD} again`;
    expect((await request(t.url).post('/auth/reset-password').send({ token: reset.token, password: newPassword })).status).toBe(204);
    expect((await t.login(email, newPassword)).status).toBe(200);
    expect((await t.delivered(AuthEvent.EmailVerified)).filter((event) => event.userId === id)).toEqual([{ userId: id, at: t.clock.now() }]);
  });
});

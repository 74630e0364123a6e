import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL } from '../../support/test-app.js';
import { EmailHooks } from '../email-hooks.js';
import { createEmailApp, dateOf, type EmailApp, engineCredentialPairs, PASSWORD, SECOND, sha256, TOKEN_INVALID } from '../email-kit.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);
const TTL_SECONDS = 600;
const INVALID = { statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' };

describe.each(PAIRS)('change of email on %s, %s credential (docs/guides/email.md)', (engine, credential) => {
  let t: EmailApp;
  let serial = 0;
  const nextEmail = (local = 'user') => `${local}${++serial}@x.io`;
  beforeAll(async () => {
    t = await createEmailApp({ engine, credential, hooks: EmailHooks, emailVerification: { tokenTtlSeconds: TTL_SECONDS } });
  });
  afterAll(() => t?.close());

  /** Every message `name` carried for `userId` so far. */
  const deliveredFor = async <N extends typeof AuthEvent.EmailChangeNotice | typeof AuthEvent.EmailChangeRequested>(name: N, userId: string) =>
    (await t.delivered(name)).filter((event) => event.user.id === userId);

  it('POST /change-email: 202; the new address gets the confirmation link, the old one a notice; nothing changes yet', async () => {
    const [oldEmail, newEmail] = [nextEmail(), nextEmail('new')];
    const { user, held } = await t.account(oldEmail);
    const response = await t.changeEmail(held, { newEmail: newEmail.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(202);
    expect(response.text).toBe('');

    const [confirmation] = await deliveredFor(AuthEvent.EmailChangeRequested, user.id);
    expect(confirmation).toEqual({ user, newEmail, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), link: `${BASE_URL}/confirm-email?token=${confirmation.token}` });
    const cancel = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);
    const [notice] = await deliveredFor(AuthEvent.EmailChangeNotice, user.id);
    expect(await deliveredFor(AuthEvent.EmailChangeNotice, user.id)).toEqual([{ user, to: oldEmail, reason: 'change_requested', token: cancel, link: `${BASE_URL}/cancel-email-change?token=${notice.token}` }]);
    expect((await t.me(held)).body).toMatchObject({ email: oldEmail, emailVerified: false });

    const rows = (await t.tokenRows(user.id)).filter((row) => row.purpose === 'change');
    expect(rows).toEqual([expect.objectContaining({ token_hash: sha256(confirmation.token), new_email: newEmail, requested_by: held.id, used_at: null })]);
    expect(JSON.stringify(rows)).not.toContain(confirmation.token);
    expect(dateOf(rows[0].expires_at)!.getTime() - dateOf(rows[0].created_at)!.getTime()).toBe(TTL_SECONDS * SECOND);
  });

  it('POST /confirm-email, without any credential: 204; the email is the new address, verified; svc.email.changed', async () => {
    const [oldEmail, newEmail] = [nextEmail(), nextEmail('new')];
    const { user, held } = await t.account(oldEmail);
    await t.changeEmail(held, { newEmail, password: PASSWORD });
    const response = await t.confirm(await t.changeTokenOf(newEmail));
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers['set-cookie']).toBeUndefined();

    expect((await t.me(held)).body).toEqual({ ...user, email: newEmail, emailVerified: true });
    expect(await t.userRow(user.id)).toMatchObject({ email: newEmail, email_skeleton: newEmail });
    expect(dateOf((await t.userRow(user.id)).email_verified_at)).toEqual(t.clock.now());
    expect((await t.delivered(AuthEvent.EmailChanged)).filter((event) => event.userId === user.id)).toEqual([{ userId: user.id, from: oldEmail, to: newEmail, at: t.clock.now() }]);
    expect((await t.login(oldEmail)).status).toBe(401);
    expect((await t.login(newEmail)).status).toBe(200);
  });

  it("ends every credential of the user but the one that asked, and no other user's", async () => {
    const [email, newEmail] = [nextEmail(), nextEmail('new')];
    const { held: asking } = await t.account(email);
    const [other, another] = [await t.device(email), await t.device(email)];
    const { held: bystander } = await t.account(nextEmail('bystander'));
    await t.changeEmail(asking, { newEmail, password: PASSWORD });
    // Opened in a browser where another of the user's devices is signed in: that one ends too.
    expect((await t.confirm(await t.changeTokenOf(newEmail), other)).status).toBe(204);

    const working = credential === 'session' ? [200] : [200, 200];
    expect(await t.statuses(asking)).toEqual(working);
    expect(await t.statuses(other)).toEqual(credential === 'session' ? [401] : [401, 401]);
    expect(await t.statuses(another)).toEqual(credential === 'session' ? [401] : [401, 401]);
    expect(await t.statuses(bystander)).toEqual(working);
  });

  it('a wrong password is 401 INVALID_CREDENTIALS: no token, no message, the credential kept', async () => {
    const { user, held } = await t.account(nextEmail());
    const response = await t.changeEmail(held, { newEmail: nextEmail('new'), password: 'wrong horse battery' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
    expect((await t.tokenRows(user.id)).filter((row) => row.purpose === 'change')).toEqual([]);
    expect(await deliveredFor(AuthEvent.EmailChangeNotice, user.id)).toEqual([]);
    expect(await deliveredFor(AuthEvent.EmailChangeRequested, user.id)).toEqual([]);
    expect((await t.me(held)).status).toBe(200);
  });

  it('a taken address (or a look-alike of one) answers 202 alike, and gets a notice that it has an account instead of a link', async () => {
    const taken = nextEmail('bob');
    const lookalike = taken.replace('bob', 'b0b');
    await t.account(taken);
    const { user, held } = await t.account(nextEmail());
    for (const newEmail of [taken, lookalike]) {
      const response = await t.changeEmail(held, { newEmail, password: PASSWORD });
      expect(response.status).toBe(202);
      expect(response.text).toBe('');
    }
    expect(await deliveredFor(AuthEvent.EmailChangeRequested, user.id)).toEqual([]);
    // Only the notice to the account's own address carries a cancel link.
    const cancel = { token: expect.any(String), link: expect.stringContaining(`${BASE_URL}/cancel-email-change?token=`) };
    expect(await deliveredFor(AuthEvent.EmailChangeNotice, user.id)).toEqual([
      { user, to: user.email, reason: 'change_requested', ...cancel },
      { user, to: taken, reason: 'address_taken' },
      { user, to: user.email, reason: 'change_requested', ...cancel },
      { user, to: lookalike, reason: 'address_taken' },
    ]);
  });

  it('an address taken by a signup since the request: 409 EMAIL_ALREADY_REGISTERED, nothing changed, the token still unused', async () => {
    const [email, newEmail] = [nextEmail(), nextEmail('new')];
    const { user, held } = await t.account(email);
    await t.changeEmail(held, { newEmail, password: PASSWORD });
    const token = await t.changeTokenOf(newEmail);
    expect((await t.signup(newEmail)).status).toBe(201);
    const response = await t.confirm(token);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Email is already registered', code: 'EMAIL_ALREADY_REGISTERED' });
    expect(await t.userRow(user.id)).toMatchObject({ email, email_verified_at: null });
    expect((await t.tokenRows(user.id)).find((row) => row.purpose === 'change')!.used_at).toBeNull();
    expect(await t.statuses(held)).toEqual(credential === 'session' ? [200] : [200, 200]);
  });

  it('a confirmation works once, the newest supersedes the older, it expires, and a verification token is not one', async () => {
    const { held, token: verification } = await t.account(nextEmail());
    const [first, second] = [nextEmail('first'), nextEmail('second')];
    await t.changeEmail(held, { newEmail: first, password: PASSWORD });
    const older = await t.changeTokenOf(first);
    await t.changeEmail(held, { newEmail: second, password: PASSWORD });
    const newer = await t.changeTokenOf(second);
    expect((await t.confirm(older)).body).toEqual(TOKEN_INVALID);
    expect((await t.confirm(verification)).body).toEqual(TOKEN_INVALID);
    expect((await t.confirm('A'.repeat(43))).body).toEqual(TOKEN_INVALID);
    expect((await t.confirm(newer)).status).toBe(204);
    expect((await t.confirm(newer)).body).toEqual(TOKEN_INVALID);
    expect((await t.me(held)).body.email).toBe(second);
    // The change spent the links mailed for the old address: the verification token too.
    expect((await t.verify(verification)).body).toEqual(TOKEN_INVALID);

    const late = await t.account(nextEmail());
    const third = nextEmail('third');
    await t.changeEmail(late.held, { newEmail: third, password: PASSWORD });
    const expiring = await t.changeTokenOf(third);
    t.clock.advance(TTL_SECONDS * SECOND);
    expect((await t.confirm(expiring)).body).toEqual(TOKEN_INVALID);
    expect((await t.userRow(late.user.id)).email).toBe(late.user.email);
  });

  it('a reset link mailed to the old address stops working once the change is confirmed', async () => {
    const [email, newEmail] = [nextEmail(), nextEmail('new')];
    const { held } = await t.account(email);
    await request(t.url).post('/auth/forgot-password').send({ email });
    const [reset] = (await t.delivered(AuthEvent.PasswordResetRequested)).filter((event) => event.user.email === email);
    await t.changeEmail(held, { newEmail, password: PASSWORD });
    expect((await t.confirm(await t.changeTokenOf(newEmail))).status).toBe(204);
    const response = await request(t.url).post('/auth/reset-password').send({ token: reset.token, password: 'battery staple horse' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('RESET_TOKEN_INVALID');
  });

  it('refuses bodies that break the rules before the password is checked, and needs a credential', async () => {
    const { user, held } = await t.account(nextEmail());
    const cases: [Record<string, unknown>, string][] = [
      [{ newEmail: 'not-an-email', password: PASSWORD }, 'newEmail must be an email address'],
      [{ newEmail: user.email.toUpperCase(), password: PASSWORD }, "newEmail is already the account's email"],
      [{ newEmail: 'аlice@x.io', password: PASSWORD }, 'newEmail: '],
      [{ newEmail: 'z\u200b@x.io', password: PASSWORD }, 'newEmail must not contain control or format characters'],
      [{ newEmail: nextEmail(), password: PASSWORD, email: 'x@x.io' }, 'property email should not exist'],
      [{ newEmail: nextEmail() }, 'password'],
    ];
    for (const [body, problem] of cases) {
      const response = await t.changeEmail(held, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(response.body.message)).toContain(problem);
    }
    const anonymous = await t.changeEmail(undefined, { newEmail: nextEmail(), password: PASSWORD });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    expect((await t.tokenRows(user.id)).filter((row) => row.purpose === 'change')).toEqual([]);
  });

  it('beforeChangeEmail gets { newEmail (normalised), password as a SecretString } and may refuse: nothing stored or sent', async () => {
    const { user, held } = await t.account(nextEmail());
    const response = await t.changeEmail(held, { newEmail: ' Ada@Blocked.TEST ', password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'not to ada@blocked.test (password **********, {"newEmail":"ada@blocked.test","password":"**********"})',
      code: 'HOOK_ABORTED',
    });
    expect((await t.tokenRows(user.id)).filter((row) => row.purpose === 'change')).toEqual([]);
    expect(await deliveredFor(AuthEvent.EmailChangeNotice, user.id)).toEqual([]);
  });
});

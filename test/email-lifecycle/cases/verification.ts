import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, AuthService } from '#svc/auth';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BASE_URL } from '../../support/test-app.js';
import { CrashingMailer, EmailHooks } from '../email-hooks.js';
import { createEmailApp, dateOf, type EmailApp, engineCredentialPairs, SECOND, sha256, TOKEN_INVALID } from '../email-kit.js';

const PAIRS = engineCredentialPairs(await availableEngines());
const TTL_SECONDS = 3600;

describe.each(PAIRS)('email verification on %s, %s credential (docs/guides/email.md)', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: EmailApp;
  let serial = 0;
  const logger = new CapturingLogger();
  const nextEmail = (local = 'user') => `${local}${++serial}@x.io`;
  beforeAll(async () => {
    t = await createEmailApp({ engine, credential, hooks: EmailHooks, providers: [CrashingMailer], logger, emailVerification: { tokenTtlSeconds: TTL_SECONDS } });
  });
  afterAll(() => t?.close());

  behaviourIt('signup mails a verification link and signs in as usual; the user body says emailVerified: false', async () => {
    const email = nextEmail();
    const response = await t.signup(email);
    expect(response.status).toBe(201);
    if (credential === 'session') expect(response.body).toEqual({ id: expect.any(String), email, displayName: null, plan: 'free', emailVerified: false });
    else expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 600 });
    const held = await t.held(response);
    const me = await t.me(held);
    expect(me.body).toEqual({ id: expect.any(String), email, displayName: null, plan: 'free', emailVerified: false });

    const [mail] = (await t.delivered(AuthEvent.EmailVerificationRequested)).filter((event) => event.user.email === email);
    expect(mail).toEqual({ user: me.body, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), link: `${BASE_URL}/verify-email?token=${mail.token}` });
    const [signedUp] = (await t.delivered(AuthEvent.SignupAfter)).filter((event) => event.user.email === email);
    expect(signedUp.user.emailVerified).toBe(false);
  });

  behaviourIt('stores the token as its SHA-256 only, for its lifetime, with no new address and no requester', async () => {
    const { user, token } = await t.account(nextEmail());
    const rows = await t.tokenRows(user.id);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ token_hash: sha256(token), purpose: 'verify', new_email: null, requested_by: null, used_at: null });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(dateOf(row.expires_at)!.getTime() - dateOf(row.created_at)!.getTime()).toBe(TTL_SECONDS * SECOND);
  });

  behaviourIt('POST /verify-email: 204, the email verified (row, body, event), the token spent', async () => {
    const { user, held, token } = await t.account(nextEmail());
    const response = await t.verify(token, held);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await t.me(held)).body.emailVerified).toBe(true);
    expect(dateOf((await t.userRow(user.id)).email_verified_at)).toEqual(t.clock.now());
    expect((await t.tokenRows(user.id))[0].used_at).not.toBeNull();
    expect((await t.delivered(AuthEvent.EmailVerified)).filter((event) => event.userId === user.id)).toEqual([{ userId: user.id, at: t.clock.now() }]);
  });

  behaviourIt('a token works once: again, 400 VERIFICATION_TOKEN_INVALID', async () => {
    const { token } = await t.account(nextEmail());
    expect((await t.verify(token)).status).toBe(204);
    const again = await t.verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(TOKEN_INVALID);
  });

  it('of concurrent uses of one token exactly one wins, and one event is published', async () => {
    const { user, token } = await t.account(nextEmail());
    const statuses = (await Promise.all([1, 2, 3, 4].map(() => t.verify(token)))).map((response) => response.status);
    expect(statuses.sort()).toEqual([204, 400, 400, 400]);
    expect((await t.delivered(AuthEvent.EmailVerified)).filter((event) => event.userId === user.id)).toHaveLength(1);
  });

  behaviourIt('POST /send-verification: 202, a new link; it supersedes the older, which is refused', async () => {
    const email = nextEmail();
    const { user, held, token: older } = await t.account(email);
    const response = await t.sendVerification(held);
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
    const newer = await t.verificationTokenOf(email);
    expect(newer).not.toBe(older);
    expect((await t.tokenRows(user.id)).map((row) => row.token_hash)).toEqual([sha256(newer)]);
    expect((await t.verify(older)).body).toEqual(TOKEN_INVALID);
    expect((await t.verify(newer)).status).toBe(204);
  });

  behaviourIt('takes no body, or {}; anything else is 400', async () => {
    const { held } = await t.account(nextEmail());
    expect((await t.sendVerification(held, {})).status).toBe(202);
    const extra = await t.sendVerification(held, { email: 'other@x.io' });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('VALIDATION_FAILED');
  });

  behaviourIt('an expired token is refused; one inside its lifetime works', async () => {
    const late = await t.account(nextEmail());
    const onTime = await t.account(nextEmail());
    t.clock.advance(TTL_SECONDS * SECOND - 1);
    expect((await t.verify(onTime.token)).status).toBe(204);
    t.clock.advance(1);
    expect((await t.verify(late.token)).body).toEqual(TOKEN_INVALID);
    expect((await t.userRow(late.user.id)).email_verified_at).toBeNull();
  });

  behaviourIt('unknown tokens are 400 VERIFICATION_TOKEN_INVALID; a token that is not a string is 400 VALIDATION_FAILED', async () => {
    expect((await t.verify('A'.repeat(43))).body).toEqual(TOKEN_INVALID);
    const wrongType = await t.verify({ $ne: null });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('VALIDATION_FAILED');
  });

  behaviourIt('send-verification: 409 EMAIL_ALREADY_VERIFIED once verified, 401 without a credential; nothing mailed', async () => {
    const email = nextEmail();
    const { held, token } = await t.account(email);
    await t.verify(token, held);
    const mailed = (await t.delivered(AuthEvent.EmailVerificationRequested)).length;
    const verified = await t.sendVerification(held);
    expect(verified.status).toBe(409);
    expect(verified.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Email is already verified', code: 'EMAIL_ALREADY_VERIFIED' });
    const anonymous = await t.sendVerification();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    expect(await t.delivered(AuthEvent.EmailVerificationRequested)).toHaveLength(mailed);
  });

  behaviourIt('beforeSendVerification gets { user } and may refuse: its answer, no new token, no mail', async () => {
    const email = nextEmail('nomail');
    const { user, held, token } = await t.account(email);
    const mailed = (await t.delivered(AuthEvent.EmailVerificationRequested)).length;
    const refused = await t.sendVerification(held);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: `no more mail for ${email} (verified: false)`, code: 'HOOK_ABORTED' });
    expect((await t.tokenRows(user.id)).map((row) => row.token_hash)).toEqual([sha256(token)]);
    expect(await t.delivered(AuthEvent.EmailVerificationRequested)).toHaveLength(mailed);
  });

  behaviourIt("an inactive user's token is refused and stays unused", async () => {
    const { user, token } = await t.account(nextEmail());
    await t.dataSource.query(`UPDATE users SET is_active = ${engine === 'postgres' ? 'false' : '0'} WHERE id = '${user.id}'`);
    expect((await t.verify(token)).body).toEqual(TOKEN_INVALID);
    expect((await t.tokenRows(user.id))[0].used_at).toBeNull();
    expect((await t.userRow(user.id)).email_verified_at).toBeNull();
  });

  behaviourIt("a mailer that fails is logged to svc with the link's token masked; the signup stands", async () => {
    const email = nextEmail('crash');
    const { user, token } = await t.account(email);
    await t.afterResponses();
    const [line] = logger.matching('error', 'observer of svc.email.verification_requested failed');
    expect(line.text).toContain(`could not mail ${BASE_URL}/verify-email?token=********** to ${email}`);
    expect(logger.lines.filter((logged) => logged.text.includes(token))).toEqual([]);
    expect((await t.userRow(user.id)).email).toBe(email);
  });

  it('purgeExpired() deletes used and expired email tokens, and keeps those still usable', async () => {
    const used = await t.account(nextEmail());
    await t.verify(used.token);
    const pending = await t.account(nextEmail());
    await t.app.get(AuthService).purgeExpired();
    expect(await t.tokenRows(used.user.id)).toEqual([]);
    expect(await t.tokenRows(pending.user.id)).toHaveLength(1);
    t.clock.advance(TTL_SECONDS * SECOND);
    expect((await t.app.get(AuthService).purgeExpired()).emailTokens).toBeGreaterThanOrEqual(1);
    expect(await t.tokenRows(pending.user.id)).toEqual([]);
  });
});

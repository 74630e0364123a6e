import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL } from '../../support/test-app.js';
import { createEmailApp, type EmailApp, engineCredentialPairs, type Held, PASSWORD, SECOND, sha256, TOKEN_INVALID } from '../email-kit.js';

/**
 * A pending change of email does not survive recovery (docs/guides/email.md),
 * played as the attacker would: they once had the password and a session, ask to move the email to
 * their own address, and wait; the victim recovers the account; the attacker confirms too late.
 */
const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);
const TTL_SECONDS = 600;
const NEW_PASSWORD = 'another horse battery';

describe.each(PAIRS)('pending changes of email and recovery, on %s, %s credential', (engine, credential) => {
  let t: EmailApp;
  let serial = 0;
  const nextEmail = (local = 'victim') => `${local}${++serial}@x.io`;
  beforeAll(async () => {
    t = await createEmailApp({ engine, credential, emailVerification: { tokenTtlSeconds: TTL_SECONDS } });
  });
  afterAll(() => t?.close());

  const ended = () => (credential === 'session' ? [401] : [401, 401]);
  const working = () => (credential === 'session' ? [200] : [200, 200]);

  /** The victim's account (verified, signed in), and the attacker's session on it, which has asked to move the email to the attacker's address. */
  async function attackerAsksForChange(): Promise<{ email: string; userId: string; victim: Held; attacker: Held; evil: string; changeToken: string }> {
    const email = nextEmail();
    const { user, held: victim, token } = await t.account(email);
    expect((await t.verify(token, victim)).status).toBe(204);
    const attacker = await t.device(email);
    const evil = nextEmail('attacker');
    expect((await t.changeEmail(attacker, { newEmail: evil, password: PASSWORD })).status).toBe(202);
    return { email, userId: user.id, victim, attacker, evil, changeToken: await t.changeTokenOf(evil) };
  }

  async function expectChangeVoid(userId: string, email: string, changeToken: string): Promise<void> {
    const late = await t.confirm(changeToken);
    expect([late.status, late.body]).toEqual([400, TOKEN_INVALID]);
    expect((await t.userRow(userId)).email).toBe(email);
    expect((await t.tokenRows(userId)).filter((row) => row.used_at === null && (row.purpose === 'change' || row.purpose === 'cancel'))).toEqual([]);
  }

  it("the victim's change of password voids it: confirming afterwards is 400 VERIFICATION_TOKEN_INVALID", async () => {
    const { email, userId, victim, attacker, changeToken } = await attackerAsksForChange();
    const changed = await request(t.url).post('/auth/change-password').set(victim.headers).send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(204);
    await expectChangeVoid(userId, email, changeToken);
    expect(await t.statuses(attacker)).toEqual(ended());
    expect(await t.statuses(victim)).toEqual(working());
  });

  it("the victim's password reset voids it", async () => {
    const { email, userId, changeToken } = await attackerAsksForChange();
    expect((await request(t.url).post('/auth/forgot-password').send({ email })).status).toBe(202);
    const [mail] = (await t.delivered(AuthEvent.PasswordResetRequested)).filter((event) => event.user.email === email);
    expect((await request(t.url).post('/auth/reset-password').send({ token: mail.token, password: NEW_PASSWORD })).status).toBe(204);
    await expectChangeVoid(userId, email, changeToken);
  });

  it("the victim's DELETE /sessions (sign out everywhere else) voids it", async () => {
    const { email, userId, victim, attacker, changeToken } = await attackerAsksForChange();
    expect((await request(t.url).delete('/auth/sessions').set(victim.headers)).status).toBe(204);
    await expectChangeVoid(userId, email, changeToken);
    expect(await t.statuses(attacker)).toEqual(ended());
    expect(await t.statuses(victim)).toEqual(working());
  });

  it("a confirmed change of email voids the other pending links: the old notice's cancel link no longer works", async () => {
    const email = nextEmail();
    const { user, held } = await t.account(email);
    const next = nextEmail('next');
    await t.changeEmail(held, { newEmail: next, password: PASSWORD });
    const cancelToken = await t.cancelTokenOf(email);
    expect((await t.confirm(await t.changeTokenOf(next), held)).status).toBe(204);
    const late = await t.cancel(cancelToken);
    expect([late.status, late.body]).toEqual([400, TOKEN_INVALID]);
    expect((await t.userRow(user.id)).email).toBe(next);
    expect(await t.statuses(held)).toEqual(working());
  });

  it("the notice's cancel link, opened without a credential: 204; the change is void and every credential of the user ends", async () => {
    const { email, userId, victim, attacker, changeToken } = await attackerAsksForChange();
    const [notice] = (await t.delivered(AuthEvent.EmailChangeNotice)).filter((event) => event.to === email);
    expect(notice.link).toBe(`${BASE_URL}/cancel-email-change?token=${notice.token}`);
    const bystander = (await t.account(nextEmail('bystander'))).held;

    const cancelled = await t.cancel(notice.token);
    expect(cancelled.status).toBe(204);
    expect(cancelled.text).toBe('');
    expect(cancelled.headers['set-cookie']).toBeUndefined();
    await expectChangeVoid(userId, email, changeToken);
    expect(await t.statuses(attacker)).toEqual(ended());
    expect(await t.statuses(victim)).toEqual(ended());
    expect(await t.statuses(bystander)).toEqual(working());
    expect((await t.delivered(AuthEvent.EmailChangeCancelled)).filter((event) => event.userId === userId)).toEqual([{ userId, at: t.clock.now() }]);
    // Single use.
    expect((await t.cancel(notice.token)).body).toEqual(TOKEN_INVALID);
  });

  it('the cancel token is stored as its SHA-256 only; an older notice still cancels the newest change; it expires', async () => {
    const { email, userId, attacker, evil } = await attackerAsksForChange();
    const first = await t.cancelTokenOf(email);
    const rows = (await t.tokenRows(userId)).filter((row) => row.purpose === 'cancel');
    expect(rows).toEqual([expect.objectContaining({ token_hash: sha256(first), new_email: null, used_at: null })]);
    expect(JSON.stringify(await t.tokenRows(userId))).not.toContain(first);

    // The attacker asks again: the first notice's link still cancels, and it cancels the new request.
    const again = nextEmail('attacker');
    await t.changeEmail(attacker, { newEmail: again, password: PASSWORD });
    expect((await t.cancel(first)).status).toBe(204);
    expect((await t.confirm(await t.changeTokenOf(again))).body).toEqual(TOKEN_INVALID);
    expect((await t.confirm(await t.changeTokenOf(evil))).body).toEqual(TOKEN_INVALID);

    const other = await attackerAsksForChange();
    t.clock.advance(TTL_SECONDS * SECOND);
    expect((await t.cancel(await t.cancelTokenOf(other.email))).body).toEqual(TOKEN_INVALID);
  });

  it('a cross-site request that carries a credential cookie is refused as at its siblings (403 CSRF_REJECTED), nothing spent', async () => {
    if (credential !== 'session') return; // The session cookie is the one every route reads.
    const { email, victim, changeToken } = await attackerAsksForChange();
    const cancelToken = await t.cancelTokenOf(email);
    for (const [path, token] of [
      ['/auth/confirm-email', changeToken],
      ['/auth/cancel-email-change', cancelToken],
    ] as const) {
      const refused = await request(t.url).post(path).set(victim.headers).set('Origin', 'https://evil.example').send({ token });
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'CSRF_REJECTED']);
    }
    expect((await t.cancel(cancelToken)).status).toBe(204);
  });

  it('bad tokens: unknown, a confirmation token, a verification token are 400 VERIFICATION_TOKEN_INVALID; not a string is 400 VALIDATION_FAILED; a cancel token does not confirm', async () => {
    const { email, changeToken } = await attackerAsksForChange();
    expect((await t.cancel('A'.repeat(43))).body).toEqual(TOKEN_INVALID);
    expect((await t.cancel(changeToken)).body).toEqual(TOKEN_INVALID);
    const { token: verification } = await t.account(nextEmail('other'));
    expect((await t.cancel(verification)).body).toEqual(TOKEN_INVALID);
    expect((await t.confirm(await t.cancelTokenOf(email))).body).toEqual(TOKEN_INVALID);
    const wrongType = await t.cancel({ $ne: null });
    expect([wrongType.status, wrongType.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // The change is still pending: nothing above spent it.
    expect((await t.confirm(changeToken)).status).toBe(204);
  });
});

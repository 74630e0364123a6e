import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createPreHijackApp, NEW_PASSWORD, type PreHijackApp, type VerificationMode, type Visitor } from '../pre-hijack-kit.js';

/**
 * Account pre-hijacking (Sudhodanan & Paverd, USENIX Security 2022; docs/decisions/0022-account-pre-hijacking.md),
 * played as the attacker would: sign up with the victim's address, plant a way in (a provider
 * identity, a passkey, an authenticator app), wait for the victim to prove the mailbox, come back.
 */
const MODES: VerificationMode[] = ['off', 'optional', 'required'];
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).flatMap((credential) => MODES.map((mode) => [engine, credential, mode] as const)));

const NOT_VERIFIED = { statusCode: 403, error: 'Forbidden', message: 'Verify your email before you add a way to sign in', code: 'EMAIL_NOT_VERIFIED' };

describe.each(CASES)('account pre-hijacking on %s, %s credential, email verification %s', (engine, credential, mode) => {
  let app: PreHijackApp;
  let serial = 0;
  const nextEmail = () => `victim${++serial}@x.io`;
  beforeAll(async () => {
    app = await createPreHijackApp({ engine, credential, mode });
  });
  afterAll(() => app?.close());

  const reclaimedOf = async (email: string) => (await app.delivered(AuthEvent.AccountReclaimed)).filter((event) => event.user.email === email);

  /** The attacker signs up with the victim's address and plants every way in the application lets them: the statuses of each try. */
  async function plantWaysIn(attacker: Visitor, email: string, login: string): Promise<{ signup: number; link: number; passkey: number; totp: number }> {
    app.op.setAccount(login, { email: `${login}@evil.test`, email_verified: false, name: 'Not the victim' });
    const signup = (await attacker.signup(email)).status;
    const link = await attacker.linkProvider(login);
    const passkey = await attacker.registerPasskey();
    const { status: totp } = await attacker.turnOnTotp();
    return { signup, link, passkey, totp };
  }

  /** The victim, locked out of an account they never made, gets in the way the README says: forgot-password, then the mailed link. */
  async function victimResets(victim: Visitor, email: string): Promise<void> {
    expect((await victim.send('POST', '/auth/forgot-password', { email })).status).toBe(202);
    expect((await victim.send('POST', '/auth/reset-password', { token: await app.resetTokenOf(email), password: NEW_PASSWORD })).status).toBe(204);
  }

  /** After the victim's proof: nothing the attacker planted lets them in, and the victim's account lists none of it. */
  async function expectAttackerLockedOut(attacker: Visitor, victim: Visitor, email: string, login: string): Promise<void> {
    expect(await attacker.statuses()).toEqual(credential === 'session' ? [401] : [401, 401]);
    const byProvider = await attacker.signInWithProvider(login);
    // The identity is no longer linked, and its own address is not verified: no account of anyone's.
    expect(byProvider.status).toBe(400);
    expect(byProvider.body?.code).toBe('OAUTH_EMAIL_UNVERIFIED');
    expect(byProvider.setCookies.filter((line) => /^svc_(session|refresh)=/.test(line))).toEqual([]);
    attacker.signOut();
    // The attacker's authenticator holds a passkey for this account wherever one could be registered.
    if (mode === 'off') {
      const byPasskey = await attacker.signInWithPasskey();
      expect(byPasskey.status).toBe(401);
      expect(byPasskey.body?.code).toBe('PASSKEY_INVALID');
    }

    // The victim signs in with their new password: no second step of the attacker's authenticator.
    const login2 = await victim.login(email, NEW_PASSWORD);
    expect(login2.status).toBe(200);
    expect(login2.body).not.toHaveProperty('mfaRequired');
    const me = await victim.me();
    expect(me.body).toMatchObject({ email, mfa: { totp: false } });
    if (mode !== 'off') expect(me.body?.emailVerified).toBe(true);
    expect((await victim.send('GET', '/auth/accounts')).body).toEqual({ password: true, identities: [] });
    const passkeys = await victim.send('GET', '/auth/passkeys');
    expect(passkeys.status).toBe(200);
    expect(passkeys.body).toEqual([]);
  }

  it('signup with the victim\'s address, then a provider link, a passkey and TOTP; the victim\'s reset removes them all and the attacker gets in by none', async () => {
    const email = nextEmail();
    const login = `attacker-${serial}`;
    const [attacker, victim] = [app.browser(), app.browser()];
    const planted = await plantWaysIn(attacker, email, login);
    expect(planted.signup).toBe(201);
    if (mode === 'off') {
      // Nothing is refused without verification: there is no proof to wait for.
      expect(planted).toEqual({ signup: 201, link: 302, passkey: 201, totp: 200 });
    } else if (mode === 'optional') {
      expect(planted).toEqual({ signup: 201, link: 403, passkey: 403, totp: 403 });
    } else {
      // Under `required` the signup hands out no credential: nothing to plant with.
      expect(planted).toEqual({ signup: 201, link: 401, passkey: 401, totp: 401 });
    }

    await victimResets(victim, email);

    const removed = mode === 'off' ? { identities: 1, passkeys: 1, totp: 1 } : { identities: 0, passkeys: 0, totp: 0 };
    expect(await reclaimedOf(email)).toEqual([{ user: expect.objectContaining({ email, mfa: { totp: false } }), removed }]);
    await expectAttackerLockedOut(attacker, victim, email, login);
  });

  it('each refusal before the mailbox is proven is 403 EMAIL_NOT_VERIFIED, and nothing is stored', async () => {
    if (mode !== 'optional') return; // `off` refuses nothing; under `required` no unverified user holds a credential.
    const attacker = app.browser();
    expect((await attacker.signup(nextEmail())).status).toBe(201);
    const userId = (await attacker.me()).body!.id as string;
    for (const [path, body] of [
      ['/auth/oidc/op/link', {}],
      ['/auth/passkeys/register/options', {}],
      ['/auth/mfa/totp/setup', { password: 'correct horse battery' }],
      ['/auth/mfa/totp/enable', { code: '123456' }],
    ] as const) {
      const answer = await attacker.send('POST', path, body);
      expect([path, answer.status, answer.body]).toEqual([path, 403, NOT_VERIFIED]);
      expect(answer.setCookies).toEqual([]);
    }
    // A registration answer made up for the attacker's own challenge-less ceremony: refused before it is looked at.
    const response = attacker.authenticator.create(
      { challenge: 'AAAA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AAAA', name: 'x', displayName: 'x' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] } as never,
      { origin: app.url },
    );
    const register = await attacker.send('POST', '/auth/passkeys/register', { response });
    expect([register.status, register.body]).toEqual([403, NOT_VERIFIED]);
    for (const table of ['mfa_totp', 'passkeys', 'oauth_accounts']) expect([table, await app.dataSource.query(`SELECT * FROM ${table} WHERE user_id = '${userId}'`)]).toEqual([table, []]);
  });

  it('the victim clicks the verification mail the attacker\'s signup caused: the attacker\'s session ends, and nothing can be planted with it afterwards', async () => {
    if (mode === 'off') return; // No verification mail without the section.
    const email = nextEmail();
    const [attacker, victim] = [app.browser(), app.browser()];
    expect((await attacker.signup(email)).status).toBe(201);
    const [mail] = (await app.delivered(AuthEvent.EmailVerificationRequested)).filter((event) => event.user.email === email);
    // Opened in the victim's own browser, where nobody is signed in.
    expect((await victim.send('POST', '/auth/verify-email', { token: mail.token })).status).toBe(204);

    expect(await reclaimedOf(email)).toEqual([{ user: expect.objectContaining({ email, emailVerified: true }), removed: { identities: 0, passkeys: 0, totp: 0 } }]);
    expect(await attacker.statuses()).toEqual(credential === 'session' ? [401] : [401, 401]);
    expect(await attacker.linkProvider(`late-${serial}`)).toBe(401);
    expect(await attacker.registerPasskey()).toBe(401);
    expect((await attacker.turnOnTotp()).status).toBe(401);
  });

  it('the verification link opened where the user is signed in keeps that credential; every other one ends', async () => {
    if (mode !== 'optional') return; // Under `required` the signup signs nobody in; `off` mails no link.
    const email = nextEmail();
    const [owner, elsewhere] = [app.browser(), app.browser()];
    expect((await owner.signup(email)).status).toBe(201);
    expect((await elsewhere.login(email)).status).toBe(200);
    const [mail] = (await app.delivered(AuthEvent.EmailVerificationRequested)).filter((event) => event.user.email === email);
    expect((await owner.send('POST', '/auth/verify-email', { token: mail.token })).status).toBe(204);
    expect(await owner.statuses()).toEqual(credential === 'session' ? [200] : [200, 200]);
    expect(await elsewhere.statuses()).toEqual(credential === 'session' ? [401] : [401, 401]);
    // Now proven: the owner adds ways in.
    expect(await owner.registerPasskey()).toBe(201);
    expect((await owner.turnOnTotp()).status).toBe(200);
  });

  it('later proofs change nothing: a reset of a proven account keeps its ways in, and reclaims nothing', async () => {
    const email = nextEmail();
    const owner = app.browser();
    await owner.signup(email);
    // The first proof: a verification link (with the section), else a first reset.
    if (mode === 'off') await victimResets(owner, email);
    else {
      const [mail] = (await app.delivered(AuthEvent.EmailVerificationRequested)).filter((event) => event.user.email === email);
      expect((await owner.send('POST', '/auth/verify-email', { token: mail.token })).status).toBe(204);
    }
    expect((await owner.login(email, mode === 'off' ? NEW_PASSWORD : undefined)).status).toBe(200);
    expect(await owner.registerPasskey()).toBe(201);
    const before = (await reclaimedOf(email)).length;
    await victimResets(owner, email);
    await app.afterResponses();
    expect(await reclaimedOf(email)).toHaveLength(before);
    expect((await owner.login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await owner.send('GET', '/auth/passkeys')).body).toHaveLength(1);
  });
});

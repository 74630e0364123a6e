import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { fromBase32 } from '../rfc6238.js';
import { boolOf, createTwoStepApp, engineCredentialPairs, PASSWORD, STEP_MS, type TwoStepApp } from '../two-step-kit.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);

describe.each(PAIRS)('two-step login on %s, %s credential (docs/guides/two-step.md)', (engine, credential) => {
  let t: TwoStepApp;
  let serial = 0;
  const nextEmail = () => `two-step${++serial}@x.io`;
  beforeAll(async () => {
    t = await createTwoStepApp({ engine, credential });
  });
  afterAll(() => t?.close());

  it('setup → enable → logout → login → challenge → verify; /me says mfa.totp true', async () => {
    const email = nextEmail();
    const held = await t.signup(email);
    expect((await t.me(held)).body.mfa).toEqual({ totp: false });

    const setup = await t.setup(held);
    expect(setup.status).toBe(200);
    expect(setup.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUrl: expect.any(String), qrSvg: expect.stringMatching(/^<svg[\s\S]*<\/svg>\s*$/) });
    const url = new URL(setup.body.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/svc tests:${email}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'svc tests', secret: setup.body.secret, algorithm: 'SHA1', digits: '6', period: '30' });
    // Pending: nothing changes for logins yet.
    expect((await t.me(held)).body.mfa).toEqual({ totp: false });
    const secret = fromBase32(setup.body.secret);
    expect(secret).toHaveLength(20);

    const enabled = await t.enable(held, t.codeOf(secret));
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    for (const code of enabled.body.recoveryCodes) expect(code).toMatch(/^[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){5}$/);
    expect((await t.me(held)).body.mfa).toEqual({ totp: true });
    const me = (await t.me(held)).body;
    expect(boolOf((await t.userRow(me.id)).mfa_totp_enabled)).toBe(true);
    expect((await t.delivered(AuthEvent.MfaEnabled)).filter((event) => event.userId === me.id)).toEqual([{ userId: me.id, at: t.clock.now() }]);

    // Logged out (a fresh client), the password alone gives no credential.
    t.clock.advance(STEP_MS);
    const logins = (await t.delivered(AuthEvent.LoginAfter)).length;
    const login = await t.login(email);
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    const cookies = cookiesOf(login);
    expect(Object.keys(cookies)).toEqual(['svc_mfa']);
    expect(cookies.svc_mfa.attributes).toEqual(expect.arrayContaining(['Max-Age=300', 'Path=/auth', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect((await t.delivered(AuthEvent.LoginAfter)).length).toBe(logins);

    const verified = await t.verify(cookies.svc_mfa.value, { code: t.codeOf(secret) });
    expect(verified.status).toBe(200);
    if (credential === 'session') expect(verified.body).toEqual(me);
    else expect(verified.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 600 });
    expect(cookiesOf(verified).svc_mfa.value).toBe('');
    const again = t.held(verified);
    expect((await t.me(again)).body).toEqual({ ...me, mfa: { totp: true } });
    const after = (await t.delivered(AuthEvent.LoginAfter)).slice(logins);
    expect(after).toEqual([{ user: me, strategy: credential, method: 'password', credential }]);
  });

  it('a user without two-step login signs in with the password alone', async () => {
    const email = nextEmail();
    await t.signup(email);
    const login = await t.login(email);
    expect(login.status).toBe(200);
    expect(login.body.mfaRequired).toBeUndefined();
    expect(cookiesOf(login).svc_mfa).toBeUndefined();
    expect((await t.me(t.held(login))).body.mfa).toEqual({ totp: false });
  });

  it('a wrong password stays 401 INVALID_CREDENTIALS, with no challenge', async () => {
    const user = await t.twoStepUser(nextEmail());
    const login = await t.login(user.email, `${PASSWORD}!`);
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('INVALID_CREDENTIALS');
    expect(cookiesOf(login).svc_mfa).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { cookiesOf } from '../../support/test-app.js';
import { createPasskeyApp, credentialCookiesOf, engineCredentialPairs, PASSWORD, type PasskeyApp } from '../../passkeys/passkey-kit.js';
import { fromBase32, stepOf, totpAt } from '../rfc6238.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);

describe.each(PAIRS)('passkeys and two-step login on %s, %s credential (docs/guides/two-step.md, "Passkeys")', (engine, credential) => {
  let app: PasskeyApp;
  beforeAll(async () => {
    app = await createPasskeyApp({ engine, credential, options: { mfa: { issuer: 'svc tests' } } });
  });
  afterAll(() => app?.close());

  it('a passkey login of a user with two-step login on is a whole login: the credential, no challenge; the password login is challenged', async () => {
    const browser = app.browser();
    await browser.signup('passkey-and-totp@x.io');
    const setup = await browser.send('post', '/auth/mfa/totp/setup', { password: PASSWORD });
    const secret = fromBase32(setup.body.secret);
    expect((await browser.send('post', '/auth/mfa/totp/enable', { code: totpAt(secret, stepOf(app.clock.now())) })).status).toBe(200);
    expect((await browser.register()).answer.status).toBe(201);
    browser.signOut();

    const { answer } = await browser.signIn();
    expect(answer.status).toBe(200);
    expect(answer.body.mfaRequired).toBeUndefined();
    expect(credentialCookiesOf(answer)).toHaveLength(1);
    expect(cookiesOf(answer).svc_mfa).toBeUndefined();
    expect((await browser.me()).body.mfa).toEqual({ totp: true });

    browser.signOut();
    const login = await browser.send('post', '/auth/login', { email: 'passkey-and-totp@x.io', password: PASSWORD });
    expect(login.body).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
  });
});

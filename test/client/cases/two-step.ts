import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));
/** RFC 6238 §4.1: the time step; a code is accepted once in its step. */
const STEP_MS = 30_000;

describe.each(CASES)('the client, two-step login, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential);
  });
  afterAll(() => app.close());

  it('sets up, turns on, asks for the second step at login (the store says so), verifies a code and a recovery code, regenerates the codes and turns off', async () => {
    const { client } = await app.signedUp('totp@client.test');
    await expect(client.twoStep.setup('wrong')).rejects.toMatchObject({ code: 'CURRENT_PASSWORD_INVALID' });
    const setup = await client.twoStep.setup(PASSWORD);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.qrSvg).toMatch(/^<svg/);
    await expect(client.twoStep.enable('000000' === app.totp(setup.secret) ? '111111' : '000000')).rejects.toMatchObject({ code: 'MFA_CODE_INVALID', status: 400 });
    const { recoveryCodes } = await client.twoStep.enable(app.totp(setup.secret));
    expect(recoveryCodes).toHaveLength(10);
    await expect(client.me()).resolves.toMatchObject({ mfa: { totp: true } });
    await client.logout();

    await expect(client.login('totp@client.test', PASSWORD)).resolves.toEqual({ status: 'two-step-required', methods: ['totp', 'recovery_code'] });
    expect(client.getSnapshot()).toEqual({ status: 'two-step-required', methods: ['totp', 'recovery_code'] });
    app.clock.advance(STEP_MS);
    await expect(client.twoStep.verify({ code: app.totp(setup.secret) })).resolves.toMatchObject({ email: 'totp@client.test' });
    expect(client.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email: 'totp@client.test' } });
    await client.logout();

    await client.login('totp@client.test', PASSWORD);
    await client.twoStep.verify({ recoveryCode: recoveryCodes[0] });
    expect(client.getSnapshot().status).toBe('signed-in');

    app.clock.advance(STEP_MS);
    const renewed = await client.twoStep.regenerateRecoveryCodes(PASSWORD, { code: app.totp(setup.secret) });
    expect(renewed.recoveryCodes).toHaveLength(10);
    await client.twoStep.disable(PASSWORD, { recoveryCode: renewed.recoveryCodes[0] });
    await expect(client.twoStep.disable(PASSWORD, { recoveryCode: renewed.recoveryCodes[1] })).rejects.toMatchObject({ code: 'MFA_NOT_ENABLED', status: 409 });
    await expect(client.me()).resolves.toMatchObject({ mfa: { totp: false } });
  });

  it('a second step without a challenge: MFA_CHALLENGE_INVALID, and the store is signed out', async () => {
    const { client } = app.person();
    await expect(client.twoStep.verify({ code: '123456' })).rejects.toMatchObject({ code: 'MFA_CHALLENGE_INVALID', status: 401 });
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
  });
});

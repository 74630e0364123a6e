import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, email and device routes, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential);
  });
  afterAll(() => app.close());

  it('verifies the email through the mailed link; send-verification answers EMAIL_ALREADY_VERIFIED after; a used link is VERIFICATION_TOKEN_INVALID', async () => {
    const { client } = app.person();
    await client.signup({ email: 'verify@client.test', password: PASSWORD });
    await client.email.sendVerification();
    const token = await app.verificationToken('verify@client.test');
    await client.email.verify(token);
    await expect(client.me()).resolves.toMatchObject({ emailVerified: true });
    await expect(client.email.sendVerification()).rejects.toMatchObject({ code: 'EMAIL_ALREADY_VERIFIED', status: 409 });
    await expect(client.email.verify(token)).rejects.toMatchObject({ code: 'VERIFICATION_TOKEN_INVALID', status: 400 });
  });

  it('changes the email through the confirmation link; a cancel link ends every credential of the user', async () => {
    const { client } = await app.signedUp('old@client.test');
    await expect(client.email.change('new@client.test', 'wrong')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await client.email.change('new@client.test', PASSWORD);
    const [request] = (await app.delivered(AuthEvent.EmailChangeRequested)).filter((one) => one.newEmail === 'new@client.test');
    await client.email.confirm(request.token);
    await expect(client.me()).resolves.toMatchObject({ email: 'new@client.test', emailVerified: true });

    await client.email.change('newer@client.test', PASSWORD);
    const notices = (await app.delivered(AuthEvent.EmailChangeNotice)).filter((one) => one.to === 'new@client.test' && one.reason === 'change_requested');
    await client.email.cancelChange(notices.at(-1)!.token!);
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
  });

  it('lists the devices, ends one (its holder is signed out at its next request) and every other', async () => {
    const laptop = await app.signedUp('devices@client.test');
    const phone = app.person();
    const tablet = app.person();
    await phone.client.login('devices@client.test', PASSWORD);
    await tablet.client.login('devices@client.test', PASSWORD);
    const devices = await laptop.client.devices.list();
    expect(devices).toHaveLength(3);
    expect(devices.filter((device) => device.current)).toHaveLength(1);
    const others = devices.filter((device) => !device.current);
    await laptop.client.devices.end(others[0].id);
    await expect(laptop.client.devices.end(others[0].id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const ended = (await Promise.allSettled([phone.client.me(), tablet.client.me()])).filter((result) => result.status === 'rejected');
    expect(ended).toHaveLength(1);
    await laptop.client.devices.endOthers();
    await expect(phone.client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(tablet.client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect([phone.client.getSnapshot(), tablet.client.getSnapshot()]).toEqual([{ status: 'signed-out' }, { status: 'signed-out' }]);
    expect(await laptop.client.devices.list()).toHaveLength(1);
  });
});

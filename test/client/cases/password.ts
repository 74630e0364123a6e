import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { isSvcError } from '#svc/auth/client';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, password routes, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential);
  });
  afterAll(() => app.close());

  it('signup signs in; the store holds the user; me answers it; logout signs out and the credential is gone', async () => {
    const { client } = app.person();
    const states: string[] = [];
    client.subscribe(() => states.push(client.getSnapshot().status));
    const outcome = await client.signup({ email: 'Signup@Client.test', password: PASSWORD, displayName: 'Ada' });
    expect(outcome).toMatchObject({ signedIn: true, user: { email: 'signup@client.test', displayName: 'Ada' } });
    expect(client.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email: 'signup@client.test', emailVerified: false, roles: ['member'] } });
    await expect(client.me()).resolves.toMatchObject({ email: 'signup@client.test' });
    await client.logout();
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(states).toEqual(['signed-in', 'signed-out']);
  });

  it('signup of a registered email: EMAIL_ALREADY_REGISTERED, still signed out', async () => {
    await app.signedUp('taken@client.test');
    const { client } = app.person();
    const error = await client.signup({ email: 'taken@client.test', password: PASSWORD }).catch((caught: unknown) => caught);
    expect(isSvcError(error) && error.code).toBe('EMAIL_ALREADY_REGISTERED');
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
  });

  it('login: INVALID_CREDENTIALS for a wrong password, signed in with the right one; a reload restores it', async () => {
    await app.signedUp('login@client.test');
    const person = app.person();
    await expect(person.client.login('login@client.test', 'not the password')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    await expect(person.client.login('login@client.test', PASSWORD)).resolves.toMatchObject({ status: 'signed-in', user: { email: 'login@client.test' } });
    // A reload: a new client in the same browser (cookies kept, the jwt page's memory gone).
    person.client.dispose();
    const again = app.person(person.agent);
    await expect(again.client.restore()).resolves.toMatchObject({ status: 'signed-in', user: { email: 'login@client.test' } });
    // A browser without a credential restores to signed out, without an error.
    await expect(app.person().client.restore()).resolves.toEqual({ status: 'signed-out' });
  });

  it('forgot and reset password: the reset ends the credential, the new password signs in; a spent token is RESET_TOKEN_INVALID', async () => {
    const { client } = await app.signedUp('reset@client.test');
    await client.forgotPassword('reset@client.test');
    const [mail] = (await app.delivered(AuthEvent.PasswordResetRequested)).filter((one) => one.user.email === 'reset@client.test');
    await client.resetPassword(mail.token, 'a brand new passphrase');
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
    await expect(client.resetPassword(mail.token, 'yet another passphrase')).rejects.toMatchObject({ code: 'RESET_TOKEN_INVALID', status: 400 });
    await expect(client.login('reset@client.test', 'a brand new passphrase')).resolves.toMatchObject({ status: 'signed-in' });
  });

  it('change password: CURRENT_PASSWORD_INVALID for a wrong current one; the change keeps this credential', async () => {
    const { client } = await app.signedUp('change@client.test');
    await expect(client.changePassword('wrong', 'a different passphrase')).rejects.toMatchObject({ code: 'CURRENT_PASSWORD_INVALID', status: 403 });
    await client.changePassword(PASSWORD, 'a different passphrase');
    await expect(client.me()).resolves.toMatchObject({ email: 'change@client.test' });
    await client.logout();
    await expect(client.login('change@client.test', 'a different passphrase')).resolves.toMatchObject({ status: 'signed-in' });
  });

  it('a request body the server refuses: VALIDATION_FAILED with its problems', async () => {
    const { client } = app.person();
    const error = await client.forgotPassword(42 as unknown as string).catch((caught: unknown) => caught);
    expect(isSvcError(error) && error.code === 'VALIDATION_FAILED' && error.problems.length).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, passkeys, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential);
  });
  afterAll(() => app.close());

  it('registers a passkey through the device ceremony, lists, renames, signs in with it and removes it', async () => {
    const person = await app.signedUp('passkey@client.test');
    const { client } = person;
    const added = await client.passkeys.register('Laptop');
    expect(added).toMatchObject({ name: 'Laptop' });
    expect(await client.passkeys.list()).toEqual([expect.objectContaining({ id: added.id, name: 'Laptop', lastUsedAt: null })]);
    await expect(client.passkeys.rename(added.id, 'Work laptop')).resolves.toMatchObject({ id: added.id, name: 'Work laptop' });
    await client.logout();

    await expect(client.passkeys.signIn()).resolves.toMatchObject({ email: 'passkey@client.test' });
    expect(client.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email: 'passkey@client.test' } });
    expect((await client.passkeys.list())[0].lastUsedAt).not.toBeNull();
    await client.passkeys.remove(added.id);
    await expect(client.passkeys.remove(added.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await client.passkeys.list()).toEqual([]);
  });

  it('a passkey the server does not know: PASSKEY_INVALID, still signed out', async () => {
    const stranger = app.person();
    // A credential made for the relying party, never registered with it.
    stranger.authenticator.create({ challenge: 'x', rp: { id: 'app.test' }, user: { id: 'AAAA' } });
    await expect(stranger.client.passkeys.signIn()).rejects.toMatchObject({ code: 'PASSKEY_INVALID', status: 401 });
    expect(stranger.client.getSnapshot()).toEqual({ status: 'signed-out' });
  });
});

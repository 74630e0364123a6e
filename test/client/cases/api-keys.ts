import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type ClientApp, createClientApp, PASSWORD } from '../client-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, API keys, deleting the account and the JWKS, on %s with the %s credential', (engine, credential) => {
  let app: ClientApp;
  beforeAll(async () => {
    app = await createClientApp(engine, credential, { apiKeys: {} });
  });
  afterAll(() => app.close());

  it('creates an API key (the key shown once), lists it without the key, and revokes it (then NOT_FOUND)', async () => {
    const { client } = await app.signedUp('keys@client.test');
    const created = await client.apiKeys.create({ name: 'deploy bot', expiresInDays: 30 });
    expect(created).toMatchObject({ name: 'deploy bot', scopes: [], key: expect.any(String) });
    const listed = await client.apiKeys.list();
    expect(listed).toEqual([expect.objectContaining({ id: created.id, name: 'deploy bot', lastUsedAt: null, start: expect.any(String) })]);
    expect(listed[0]).not.toHaveProperty('key');
    expect(created.key.startsWith(listed[0].start)).toBe(true);
    await client.apiKeys.revoke(created.id);
    expect(await client.apiKeys.list()).toEqual([]);
    await expect(client.apiKeys.revoke(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await app.delivered(AuthEvent.ApiKeyRevoked)).map((one) => one.apiKey.id)).toContain(created.id);
  });

  it('refuses a scope the user does not hold with API_KEY_SCOPE_INVALID', async () => {
    const { client } = await app.signedUp('scopes@client.test');
    await expect(client.apiKeys.create({ name: 'too much', scopes: ['users:delete'] })).rejects.toMatchObject({ code: 'API_KEY_SCOPE_INVALID', status: 400 });
  });

  it('deletes the account: signed out here, the password no longer signs in', async () => {
    const { client } = await app.signedUp('leaving@client.test');
    const { id } = await client.me();
    await client.deleteAccount();
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
    expect((await app.delivered(AuthEvent.UserDeleted)).map((one) => one.userId)).toContain(id);
    await expect(app.person().client.login('leaving@client.test', PASSWORD)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('keeps the person signed in when deleting the account is refused (the last administrator: LAST_ADMIN)', async () => {
    const { client } = await app.signedUp('last-admin@client.test', ['admin']);
    await expect(client.deleteAccount()).rejects.toMatchObject({ code: 'LAST_ADMIN', status: 409 });
    expect(client.getSnapshot()).toMatchObject({ status: 'signed-in' });
    await expect(client.me()).resolves.toMatchObject({ email: 'last-admin@client.test' });
  });

  it('jwks(): a server that signs its access tokens with HMAC publishes no keys (404 NOT_FOUND)', async () => {
    await expect(app.person().client.jwks()).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSvcClient, type SvcClient } from '#svc/auth/client';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BrowserAgent } from '../../support/oauth/index.js';
import { addAccount, createSeveralWaysApp, PASSWORD, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';

const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('the client, provider logins and linking, on %s with the %s credential', (engine, credential) => {
  let app: SeveralWaysApp;
  const clients: SvcClient[] = [];
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine, credential });
  });
  afterAll(async () => {
    for (const client of clients) client.dispose();
    await app.close();
  });

  const person = () => {
    const agent = new BrowserAgent();
    const client = createSvcClient({ baseUrl: app.url, credential, fetch: (input, init) => agent.request(input, init) });
    clients.push(client);
    return { agent, client };
  };

  it('links an oidc and an oauth2 identity (the provider URL the link answers), lists them, unlinks one; LAST_LOGIN_METHOD is not reached while a password remains', async () => {
    addAccount(app, 'client-linker', { email: 'elsewhere@provider.test', email_verified: true, name: 'Client Linker' });
    const { agent, client } = person();
    await client.signup({ email: 'linker@client.test', password: PASSWORD });
    for (const method of ['oidc', 'oauth2'] as const) {
      const { url } = await client.providers.link(method, method === 'oidc' ? 'op' : 'acme');
      expect((await agent.signIn(url, { app: app.url, login: 'client-linker' })).response.status).toBe(302);
    }
    const accounts = await client.providers.accounts();
    expect(accounts.password).toBe(true);
    expect(accounts.identities.map(({ method, provider }) => `${method}:${provider}`).sort()).toEqual(['oauth2:acme', 'oidc:op']);
    await client.providers.unlink('oauth2', 'acme');
    await expect(client.providers.unlink('oauth2', 'acme')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await client.providers.accounts()).identities).toEqual([expect.objectContaining({ method: 'oidc', provider: 'op', email: 'elsewhere@provider.test' })]);
  });

  it('"Sign in with" is a navigation to loginUrl; back on the page, restore() finds the credential', async () => {
    addAccount(app, 'client-newcomer', { email: 'newcomer@provider.test', email_verified: true, name: 'Newcomer' });
    const { agent, client } = person();
    const url = client.providers.loginUrl('oidc', 'op', '/welcome');
    expect(url).toBe(`${app.url}/auth/oidc/op/login?redirect=%2Fwelcome`);
    const { response } = await agent.signIn(url, { app: app.url, login: 'client-newcomer' });
    expect(response.headers.get('location')).toBe('/welcome');
    await expect(client.restore()).resolves.toMatchObject({ status: 'signed-in', user: { email: 'newcomer@provider.test' } });
    await expect(client.providers.link('oidc', 'nowhere')).rejects.toMatchObject({ code: 'OAUTH_PROVIDER_UNKNOWN', status: 404 });
    // Its only way in: the identity stays.
    await expect(client.providers.unlink('oidc', 'op')).rejects.toMatchObject({ code: 'LAST_LOGIN_METHOD', status: 409 });
  });
});

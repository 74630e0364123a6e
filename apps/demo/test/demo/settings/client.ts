import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSvcClient, isSvcError, type SvcClient } from '#svc/auth/client';
import { BrowserAgent } from '../../../../../test/support/oauth/index.js';
import type { DemoProcess } from '../demo-process.js';
import { startForSuite } from '../suite-demos.js';
import { clientDemoKey, startClientDemo } from './shared-demos.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
type Credential = 'session' | 'jwt';

// docs/guides/client.md: svc/client against the running demo (no test double between them), each
// credential: the account's life from signup to deletion through the client's methods, the links
// read from the demo's MAIL lines as a person reads their mail.
const CREDENTIALS: Credential[] = ['session', 'jwt'];
// The jwt demo is jwt-signing.ts's HMAC one too (shared-demos.ts).
const started = startForSuite({ session: () => startClientDemo('session'), jwt: () => startClientDemo('jwt') }, { jwt: clientDemoKey('jwt') });

describe.each(CREDENTIALS)('svc/client against the running demo, %s credential', (credential) => {
  let demo: DemoProcess;
  let client: SvcClient;
  beforeAll(() => {
    demo = started[credential]!.demo;
    const agent = new BrowserAgent();
    client = createSvcClient({ baseUrl: demo.baseUrl, credential, fetch: (input, init) => agent.request(input, init) });
  });
  afterAll(() => client?.dispose());

  const tokenOf = async (to: string, kind: string) => {
    const line = await demo.waitForLine('MAIL ', (mail) => mail.to === to && mail.kind === kind);
    return new URL(String(line.link)).searchParams.get('token')!;
  };

  it('signs up, verifies the email, signs out and in, changes and resets the password, and lists devices and activity', async () => {
    const email = `client-${credential}@example.io`;
    const signedUp = await client.signup({ email, password: PASSWORD });
    expect(signedUp.signedIn).toBe(true);
    expect(client.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email } });
    await client.email.verify(await tokenOf(email, 'email_verification'));
    expect((await client.me()).emailVerified).toBe(true);

    await client.logout();
    expect(client.getSnapshot().status).toBe('signed-out');
    expect((await client.login(email, PASSWORD)).status).toBe('signed-in');
    await client.changePassword(PASSWORD, NEW_PASSWORD);
    await client.forgotPassword(email);
    await client.resetPassword(await tokenOf(email, 'password_reset'), PASSWORD);
    expect((await client.login(email, PASSWORD)).status).toBe('signed-in');

    expect((await client.devices.list()).length).toBeGreaterThanOrEqual(1);
    const actions = (await client.activity()).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['login', 'email_verified', 'password_changed', 'password_reset']));
  });

  it('re-authenticates, creates and revokes an API key, acts in an organization, and deletes the account', async () => {
    await client.reauth({ password: PASSWORD });
    const key = await client.apiKeys.create({ name: 'ci' });
    expect(key.key.startsWith('svc_')).toBe(true);
    expect((await client.apiKeys.list()).map((listed) => listed.id)).toEqual([key.id]);
    await client.apiKeys.revoke(key.id);
    expect(await client.apiKeys.list()).toEqual([]);

    const organization = await client.organizations.create('Acme', `acme-${credential}`);
    expect((await client.fetch('/org-projects')).status).toBe(403);
    await client.organizations.activate(organization.id);
    const projects = await client.fetch('/org-projects');
    expect([projects.status, await projects.json()]).toEqual([200, { organizationId: organization.id }]);

    await client.deleteAccount();
    expect(client.getSnapshot().status).toBe('signed-out');
    const refused = await client.login(`client-${credential}@example.io`, PASSWORD).catch((error: unknown) => error);
    expect(isSvcError(refused) && refused.code).toBe('INVALID_CREDENTIALS');
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent, type AuthOptions } from '#svc/auth';
import { type OidcProviderHarness, reserveLoopbackPort, startOidcProvider } from '../../support/oauth/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { Client } from '../../several-ways-in/several-ways-kit.js';
import { fromBase32, stepOf, totpAt } from '../rfc6238.js';
import { engineCredentialPairs, PASSWORD, STEP_MS } from '../two-step-kit.js';

const PAIRS = await engineCredentialPairs();
const CLIENT_ID = 'svc-two-step';
const CLIENT_SECRET = 'Hk3vQ9zL2mW7xN4bT8cR1jF6yG5dPa0s';

interface ProviderApp extends TestApp {
  url: string;
  credential: 'session' | 'jwt';
  op: OidcProviderHarness;
}

/** A password and an OpenID Connect provider `op` (oidc-provider on loopback) in one application, with two-step login. */
async function createProviderApp(engine: 'sqlite' | 'postgres', credential: 'session' | 'jwt', challengeProviderLogins: boolean): Promise<ProviderApp> {
  const port = await reserveLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const op = await startOidcProvider({ clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${url}/auth/oidc/op/callback`] }] });
  const t = await createTestApp({
    engine,
    options: {
      credential,
      baseUrl: url,
      secret: TEST_SECRET,
      password: { bcryptCost: 10 },
      oidc: { providers: [{ name: 'op', issuer: op.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }] },
      mfa: { issuer: 'svc tests', challengeProviderLogins },
    } as Partial<AuthOptions>,
  });
  await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  return {
    ...t,
    url,
    credential,
    op,
    close: async () => {
      await t.close();
      await op.close();
    },
  };
}

/** Signs `email` up with a password, turns two-step login on, links the identity `login` at `op`, and signs out. */
async function twoStepUserWithIdentity(app: ProviderApp, email: string, login: string): Promise<{ client: Client; secret: Buffer }> {
  const client = new Client(app);
  expect((await client.signup(email)).status).toBe(201);
  const setup = await client.send('POST', '/auth/mfa/totp/setup', { password: PASSWORD });
  const secret = fromBase32(((await setup.json()) as { secret: string }).secret);
  expect((await client.send('POST', '/auth/mfa/totp/enable', { code: totpAt(secret, stepOf(app.clock.now())) })).status).toBe(200);
  app.op.setAccount(login, { email, email_verified: true, name: 'Two Step' });
  expect((await client.link('oidc', login)).status).toBe(302);
  await client.logout();
  app.clock.advance(STEP_MS);
  return { client, secret };
}

describe.each(PAIRS)('provider logins and two-step login on %s, %s credential (README, "Two-step login")', (engine, credential) => {
  describe('by default', () => {
    let app: ProviderApp;
    beforeAll(async () => {
      app = await createProviderApp(engine, credential, false);
    });
    afterAll(() => app?.close());

    it('a provider login of a user with two-step login on is not challenged (the provider has its own factors)', async () => {
      const { client } = await twoStepUserWithIdentity(app, 'by-default@x.io', 'by-default');
      const callback = await client.signInWith('oidc', 'by-default');
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/');
      const me = await client.me();
      expect(me.status).toBe(200);
      expect(me.body.mfa).toEqual({ totp: true });
      // The password login of the same user still is.
      const login = await new Client(app).login('by-default@x.io');
      expect(await login.json()).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    });
  });

  describe('with challengeProviderLogins', () => {
    let app: ProviderApp;
    beforeAll(async () => {
      app = await createProviderApp(engine, credential, true);
    });
    afterAll(() => app?.close());

    it('the callback sets the challenge instead of a credential and redirects with mfa=required; a code then signs in as an oidc login', async () => {
      const { client, secret } = await twoStepUserWithIdentity(app, 'challenged@x.io', 'challenged');
      await app.afterResponses();
      await app.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = app.events.payloadsOf(AuthEvent.LoginAfter).length;
      const oidcBefore = app.events.payloadsOf(AuthEvent.OidcLoginAfter).length;
      const callback = await client.signInWith('oidc', 'challenged');
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/?mfa=required');
      const cookies = callback.headers.getSetCookie().map((line) => line.split('=')[0]);
      expect(cookies).toContain('svc_mfa');
      expect(cookies).not.toContain('svc_session');
      expect(cookies).not.toContain('svc_refresh');
      expect((await client.me()).status).toBe(401);

      const verified = await client.send('POST', '/auth/mfa/verify', { code: totpAt(secret, stepOf(app.clock.now())) });
      expect(verified.status).toBe(200);
      const me = await client.me();
      expect(me.status).toBe(200);
      expect(me.body.email).toBe('challenged@x.io');
      await app.afterResponses();
      expect(app.events.payloadsOf(AuthEvent.LoginAfter).slice(before)).toEqual([{ user: me.body, strategy: 'oidc', method: 'oidc', provider: 'op', credential }]);
      // The method's own event carries what the provider said at the callback; a challenged login publishes none.
      expect(app.events.payloadsOf(AuthEvent.OidcLoginAfter).length).toBe(oidcBefore);
    });

    it('a provider user without two-step login is signed in at the callback as before', async () => {
      app.op.setAccount('plain', { email: 'plain@x.io', email_verified: true, name: 'Plain' });
      const client = new Client(app);
      const callback = await client.signInWith('oidc', 'plain');
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/');
      expect((await client.me()).status).toBe(200);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { addAccount, Client, createSeveralWaysApp, type ProviderMethod, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';
import { fromBase32, stepOf, totpAt } from '../rfc6238.js';
import { engineCredentialPairs, PASSWORD, STEP_MS } from '../two-step-kit.js';

const PAIRS = engineCredentialPairs(BEHAVIOUR_ENGINES);
const METHODS: ProviderMethod[] = ['oidc', 'oauth2'];
const PROVIDER_OF: Record<ProviderMethod, string> = { oidc: 'op', oauth2: 'acme' };
const METHOD_EVENT = { oidc: AuthEvent.OidcLoginAfter, oauth2: AuthEvent.OAuth2LoginAfter } as const;

/**
 * A password, an OpenID Connect provider `op` and a plain OAuth 2.0 provider `acme` (oidc-provider
 * on loopback) in one application, with two-step login; `challengeProviderLogins` as given (left
 * out: the default).
 */
function createProviderApp(engine: 'sqlite' | 'postgres', credential: 'session' | 'jwt', challengeProviderLogins?: boolean): Promise<SeveralWaysApp> {
  return createSeveralWaysApp({ engine, credential, mfa: { issuer: 'svc tests', ...(challengeProviderLogins === undefined ? {} : { challengeProviderLogins }) } });
}

/** Signs `email` up with a password, turns two-step login on, links the identity `login` at `method`'s provider, and signs out. */
async function twoStepUserWithIdentity(app: SeveralWaysApp, email: string, login: string, method: ProviderMethod = 'oidc'): Promise<{ client: Client; secret: Buffer }> {
  const client = new Client(app);
  expect((await client.signup(email)).status).toBe(201);
  const setup = await client.send('POST', '/auth/mfa/totp/setup', { password: PASSWORD });
  const secret = fromBase32(((await setup.json()) as { secret: string }).secret);
  expect((await client.send('POST', '/auth/mfa/totp/enable', { code: totpAt(secret, stepOf(app.clock.now())) })).status).toBe(200);
  addAccount(app, login, { email, email_verified: true, name: 'Two Step' });
  expect((await client.link(method, login)).status).toBe(302);
  await client.logout();
  app.clock.advance(STEP_MS);
  return { client, secret };
}

describe.each(PAIRS)('provider logins and two-step login on %s, %s credential (docs/guides/two-step.md)', (engine, credential) => {
  describe('with challengeProviderLogins: false', () => {
    let app: SeveralWaysApp;
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

  // OWASP ASVS 5.0 V6: the second factor on every way in, unless the application says otherwise.
  describe('by default (challengeProviderLogins left out)', () => {
    let app: SeveralWaysApp;
    beforeAll(async () => {
      app = await createProviderApp(engine, credential);
    });
    afterAll(() => app?.close());

    it.each(METHODS)('the %s callback sets the challenge instead of a credential and redirects with mfa=required; a code then signs in as that method', async (method) => {
      const { client, secret } = await twoStepUserWithIdentity(app, `challenged-${method}@x.io`, `challenged-${method}`, method);
      await app.afterResponses();
      await app.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
      const before = app.events.payloadsOf(AuthEvent.LoginAfter).length;
      const methodBefore = app.events.payloadsOf(METHOD_EVENT[method]).length;
      const callback = await client.signInWith(method, `challenged-${method}`);
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
      expect(me.body.email).toBe(`challenged-${method}@x.io`);
      await app.afterResponses();
      expect(app.events.payloadsOf(AuthEvent.LoginAfter).slice(before)).toEqual([{ user: me.body, strategy: method, method, provider: PROVIDER_OF[method], credential }]);
      // The method's own event carries what the provider said at the callback; a challenged login publishes none.
      expect(app.events.payloadsOf(METHOD_EVENT[method]).length).toBe(methodBefore);
    });

    it('the challenge of a provider login signs in once: the same cookie again is 401 MFA_CHALLENGE_INVALID', async () => {
      const { client, secret } = await twoStepUserWithIdentity(app, 'provider-once@x.io', 'provider-once');
      expect((await client.signInWith('oidc', 'provider-once')).headers.get('location')).toBe('/?mfa=required');
      // A copy of the browser's cookies as they stand: the challenge cookie, which the verification then clears.
      const copy = client.agent.clone();
      expect((await client.send('POST', '/auth/mfa/verify', { code: totpAt(secret, stepOf(app.clock.now())) })).status).toBe(200);
      const replay = await copy.request(`${app.url}/auth/mfa/verify`, {
        method: 'POST',
        headers: { origin: app.url, 'content-type': 'application/json' },
        body: JSON.stringify({ code: totpAt(secret, stepOf(app.clock.now()) + 1) }),
      });
      expect([replay.status, ((await replay.json()) as { code: string }).code]).toEqual([401, 'MFA_CHALLENGE_INVALID']);
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

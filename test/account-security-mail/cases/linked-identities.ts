import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { addAccount, createSeveralWaysApp, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';

// docs/guides/account-security.md: linking an identity sends identity_linked; a provider login does
// not; deleting the account removes the identity's row too. Engine-independent: SQLite.
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => (['session', 'jwt'] as const).map((credential) => [engine, credential] as const));

describe.each(CASES)('identities linked to an account on %s with the %s credential', (engine, credential) => {
  let app: SeveralWaysApp;
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine, credential });
  });
  afterAll(() => app?.close());

  const noticesOf = async (userId: unknown) => {
    await app.afterResponses();
    return app.events.payloadsOf('svc.security.notice').filter((event) => event.user.id === userId);
  };

  it('a link: identity_linked to the user, from the request that completed it; the provider login after it: none', async () => {
    addAccount(app, 'linked-1', { email: 'linked-1@provider.test', email_verified: true, name: 'Linked One' });
    const browser = app.browser();
    expect((await browser.signup('links@x.io')).status).toBe(201);
    const { body: me } = await browser.me();
    expect((await browser.link('oidc', 'linked-1')).status).toBe(302);
    const notices = await noticesOf(me.id);
    expect(notices).toEqual([{ user: expect.objectContaining({ id: me.id, email: 'links@x.io' }), notice: 'identity_linked', ip: expect.any(String), userAgent: expect.any(String) }]);
    await browser.logout();
    const other = app.browser();
    expect((await other.signInWith('oidc', 'linked-1')).status).toBe(302);
    expect((await other.me()).body.id).toBe(me.id);
    expect(await noticesOf(me.id)).toHaveLength(1);
  });

  it('DELETE /me removes the linked identities with the user: the provider identity signs up anew afterwards', async () => {
    addAccount(app, 'linked-2', { email: 'linked-2@provider.test', email_verified: true, name: 'Linked Two' });
    const browser = app.browser();
    expect((await browser.signup('leaving@x.io')).status).toBe(201);
    const { body: me } = await browser.me();
    expect((await browser.link('oauth2', 'linked-2')).status).toBe(302);
    expect((await app.rows('oauth_accounts')).filter((row) => row.user_id === me.id)).toHaveLength(1);
    expect((await browser.send('DELETE', '/auth/me')).status).toBe(204);
    expect((await app.rows('oauth_accounts')).filter((row) => row.user_id === me.id)).toEqual([]);
    expect((await app.rows('users')).filter((row) => row.id === me.id)).toEqual([]);
    const again = app.browser();
    expect((await again.signInWith('oauth2', 'linked-2')).status).toBe(302);
    expect((await again.me()).body.id).not.toBe(me.id);
  });
});

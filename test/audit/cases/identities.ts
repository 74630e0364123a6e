import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { addAccount, createSeveralWaysApp, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';

// docs/guides/account-security.md, "Activity log": linking and unlinking an identity, and a login
// through a provider, each recorded with the provider's name (no provider token). Behaviour whatever
// the engine: SQLite.
describe.each(BEHAVIOUR_ENGINES)('identities in the activity log on %s', (engine) => {
  let app: SeveralWaysApp;
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine, credential: 'session', extra: { audit: {} } });
  });
  afterAll(() => app?.close());

  it('records identity_linked, a provider login and identity_unlinked for the account', async () => {
    addAccount(app, 'linker', { email: 'linker@provider.test', email_verified: true, name: 'Linker' });
    const browser = app.browser();
    expect((await browser.signup('linker@x.io')).status).toBe(201);
    const { body: me } = await browser.me();
    expect((await browser.link('oidc', 'linker')).status).toBe(302);
    await browser.logout();
    expect((await browser.signInWith('oidc', 'linker')).status).toBe(302);
    expect((await browser.me()).body.id).toBe(me.id);
    expect((await browser.unlink('oidc')).status).toBe(204);

    await app.afterResponses();
    const rows: { action: string; details: string; user_id: string }[] = await app.dataSource.query('SELECT action, details, user_id FROM auth_audit_events ORDER BY at, id');
    const entries = rows.filter((row) => row.user_id === me.id).map((row) => `${row.action} ${row.details}`);
    expect(entries.sort()).toEqual(
      [
        'login {"method":"password","signup":true}',
        'identity_linked {"provider":"op"}',
        'logout {}',
        'login {"method":"oidc","provider":"op"}',
        'identity_unlinked {"method":"oidc","provider":"op"}',
      ].sort(),
    );
  });
});

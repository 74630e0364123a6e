import { credentialCases } from '../../support/credential-cases.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { addAccount, createSeveralWaysApp, type SeveralWaysApp } from '../../several-ways-in/several-ways-kit.js';
import { POLICY } from '../authorization-kit.js';

const CASES = credentialCases(BEHAVIOUR_ENGINES);

/** docs/guides/roles-and-permissions.md: a user a provider signs up gets the default roles, as a password signup does (a provider flow: behaviour, on SQLite). */
describe.each(CASES)('default roles at a provider signup, on %s with the %s credential', (engine, credential) => {
  let app: SeveralWaysApp;
  beforeAll(async () => {
    app = await createSeveralWaysApp({ engine, credential, authorization: POLICY });
  });
  afterAll(() => app?.close());

  it.each(['oidc', 'oauth2'] as const)('%s: the new user holds the default roles, in its row and on /me', async (method) => {
    const login = `newcomer-${method}`;
    addAccount(app, login, { email: `${login}@x.io`, email_verified: true, name: 'Newcomer' });
    const browser = app.browser();
    expect((await browser.signInWith(method, login)).status).toBe(302);
    const { status, body } = await browser.me();
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: `${login}@x.io`, roles: ['member'], permissions: [] });
    const rows: { role: string }[] = await app.dataSource.query(`SELECT role FROM user_roles WHERE user_id = '${String(body.id)}'`);
    expect(rows.map((row) => row.role)).toEqual(['member']);
  });
});

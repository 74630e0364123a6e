import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthService } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { type AuditApp, createAuditApp, SAFARI } from '../audit-kit.js';

// docs/guides/account-security.md, "Activity log": the API key and account-deletion entries, each in
// its change's transaction; a deleted account's entries stay, its id a plain value. Behaviour
// whatever the engine: SQLite.
describe.each(BEHAVIOUR_ENGINES)('the activity log of API keys and deleted accounts on %s', (engine) => {
  let t: AuditApp;
  beforeAll(async () => {
    t = await createAuditApp(engine, 'session', { apiKeys: {} });
  });
  afterAll(() => t?.close());

  it('records api_key_created and api_key_revoked without the key, and account_deleted that outlives the account', async () => {
    const alice = t.device();
    const aliceId = await alice.signedUp('keys@example.io');
    const created = await alice.send('post', '/auth/api-keys', { name: 'nightly' });
    expect(created.status).toBe(201);
    expect((await alice.send('delete', `/auth/api-keys/${created.body.id as string}`)).status).toBe(204);
    expect((await alice.send('delete', '/auth/me')).status).toBe(204);

    await t.afterResponses();
    const rows = (await t.auditRows()).filter((row) => row.user_id === aliceId);
    expect(rows.map((row) => row.action).sort()).toEqual(['account_deleted', 'api_key_created', 'api_key_revoked', 'login']);
    expect(rows.find((row) => row.action === 'api_key_created')!.details).toEqual({ id: created.body.id, name: 'nightly' });
    expect(rows.find((row) => row.action === 'account_deleted')).toEqual(expect.objectContaining({ actor_id: null, ip: '203.0.113.0', user_agent: alice.userAgent }));
    expect(JSON.stringify(rows)).not.toContain((created.body.key as string).slice(4));
  });

  it("records an administrator's deletion of a user with the administrator as its actor", async () => {
    const bob = t.device();
    const bobId = await bob.signedUp('deleted-by-admin@example.io');
    const root = t.device('198.51.100.7', SAFARI);
    const rootId = await root.signedUp('deleting-root@example.io');
    await t.app.get(AuthService).grantRole(rootId, 'admin');
    expect((await root.send('delete', `/auth/admin/users/${bobId}`)).status).toBe(204);

    await t.afterResponses();
    const deleted = (await t.auditRows()).filter((row) => row.user_id === bobId && row.action === 'account_deleted');
    expect(deleted).toEqual([expect.objectContaining({ actor_id: rootId, ip: '198.51.100.0', user_agent: SAFARI })]);
  });
});

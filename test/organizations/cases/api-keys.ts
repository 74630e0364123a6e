import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createOrgApp, type OrgApp } from '../organizations-kit.js';

// docs/decisions/0032-api-keys.md: an API key acts in no organization, whatever its owner's session chose.
describe.each(BEHAVIOUR_ENGINES)('an API key on an organization route on %s', (engine) => {
  let t: OrgApp;
  beforeAll(async () => {
    t = await createOrgApp(engine, 'session', { apiKeys: {} });
  });
  afterAll(() => t?.close());

  it('is refused 403 ORGANIZATION_REQUIRED by @OrgPermissions, while the session that made it is served', async () => {
    const owner = await t.user('key-owner@example.io');
    const org = await t.organization(owner, 'keyed');
    expect((await t.activate(owner, org)).status).toBe(204);
    await t.call(owner, 'get', '!/org-projects').expect(200);
    const key = (await t.call(owner, 'post', '/api-keys', { name: 'ci' }).expect(201)).body.key as string;
    const refused = await t.call({ ...owner, headers: { Authorization: `Bearer ${key}` } }, 'get', '!/org-projects').expect(403);
    expect(refused.body.code).toBe('ORGANIZATION_REQUIRED');
  });
});

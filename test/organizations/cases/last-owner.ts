import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { createOrgApp, type Held, type OrgApp } from '../organizations-kit.js';

// docs/guides/organizations.md, "The last owner": an organization always keeps a member holding its
// creator role; two owners demoting or removing each other at once cannot both pass (row locks). The
// races run on every engine; the refusals one at a time are behaviour, on SQLite. None of it is about
// the credential: the session credential alone.
const cases = (await availableEngines()).map((engine) => [engine, 'session'] as const);

describe.each(cases)('the last owner on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: OrgApp;
  let owner: Held;
  let org: string;

  beforeAll(async () => {
    t = await createOrgApp(engine, credential);
  });
  beforeEach(async () => {
    await t.reset();
    owner = await t.user('owner@example.io');
    org = await t.organization(owner, 'acme');
  });
  afterAll(() => t.close());

  const owners = async () => ((await t.call(owner, 'get', `/organizations/${org}`).expect(200)).body.members as { userId: string; role: string }[]).filter((m) => m.role === 'owner').map((m) => m.userId);

  behaviourIt('the only owner can neither demote nor remove itself, nor leave: 409 LAST_OWNER', async () => {
    expect((await t.call(owner, 'patch', `/organizations/${org}/members/${owner.userId}`, { role: 'admin' }).expect(409)).body.code).toBe('LAST_OWNER');
    expect((await t.call(owner, 'delete', `/organizations/${org}/members/${owner.userId}`).expect(409)).body.code).toBe('LAST_OWNER');
    expect(await owners()).toEqual([owner.userId]);
  });

  behaviourIt('with a second owner, one may step down or leave', async () => {
    const second = await t.user('second@example.io');
    await t.join(owner, org, second, 'owner');
    await t.call(owner, 'patch', `/organizations/${org}/members/${owner.userId}`, { role: 'admin' }).expect(204);
    expect((await t.call(second, 'delete', `/organizations/${org}/members/${second.userId}`).expect(409)).body.code).toBe('LAST_OWNER');
    expect((await t.call(second, 'delete', `/organizations/${org}/members/${owner.userId}`).expect(204)));
    expect(await t.call(second, 'get', `/organizations/${org}`).expect(200)).toBeTruthy();
  });

  it('two owners stepping down at once: exactly one passes (204), the other 409 LAST_OWNER, one owner is left', async () => {
    // Each round a new organization of two new owners: no emptying of the tables between rounds.
    for (let round = 0; round < 5; round += 1) {
      owner = await t.user(`owner-${round}@example.io`);
      org = await t.organization(owner, `race-${round}`);
      const second = await t.user(`second-${round}@example.io`);
      await t.join(owner, org, second, 'owner');
      const answers = await Promise.all([
        t.call(owner, 'patch', `/organizations/${org}/members/${owner.userId}`, { role: 'member' }),
        t.call(second, 'patch', `/organizations/${org}/members/${second.userId}`, { role: 'member' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('LAST_OWNER');
      const remaining = await t.dataSource.query(`SELECT user_id FROM organization_members WHERE organization_id = '${org}' AND role = 'owner'`);
      expect(remaining).toHaveLength(1);
    }
  });

  it('two owners leaving at once: exactly one passes, the other 409 LAST_OWNER, one owner is left', async () => {
    const second = await t.user('second@example.io');
    await t.join(owner, org, second, 'owner');
    const answers = await Promise.all([
      t.call(owner, 'delete', `/organizations/${org}/members/${owner.userId}`),
      t.call(second, 'delete', `/organizations/${org}/members/${second.userId}`),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('LAST_OWNER');
    const remaining = await t.dataSource.query(`SELECT user_id FROM organization_members WHERE organization_id = '${org}' AND role = 'owner'`);
    expect(remaining).toHaveLength(1);
  });
});

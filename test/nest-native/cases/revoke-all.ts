import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthService } from '#svc/auth';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../../password-recovery/recovery-client.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** `AuthService.revokeAllCredentials(userId)`: "log out everywhere", whatever the credential. */
describe.each(BEHAVIOUR_ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))('revokeAllCredentials on %s, %s', (engine, strategy) => {
  let t: TestApp;
  let client: RecoveryClient;
  beforeAll(async () => {
    t = await createTestApp({ engine, strategy, options: recoveryOptions(strategy) });
    client = new RecoveryClient(t, strategy);
  });
  afterAll(() => t?.close());

  it("ends every credential of the user, and only that user's", async () => {
    const victim = await client.createUser('everywhere@x.io', 'correct horse');
    await client.createUser('bystander@x.io', 'correct horse');
    const devices = [await client.loginFor('everywhere@x.io', 'correct horse'), await client.loginFor('everywhere@x.io', 'correct horse')];
    const bystander = await client.loginFor('bystander@x.io', 'correct horse');
    await t.app.get(AuthService).revokeAllCredentials(victim.id);
    for (const device of devices) expect(await device.statuses()).toEqual(strategy === 'session' ? [401] : [401, 401]);
    expect(await bystander.me()).toBe(200);
  });
});

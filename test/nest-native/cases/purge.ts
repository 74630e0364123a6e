import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { AuthService } from '#svc/auth';
import { PASSWORD_STRATEGIES, RecoveryClient, recoveryOptions } from '../../password-recovery/recovery-client.js';
import { availableEngines } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ENGINES = await availableEngines();
const DAY = 86_400_000;

/** `purge: { cron }` through @nestjs/schedule, and `AuthService.purgeExpired()` behind it. */
describe.each(ENGINES.flatMap((engine) => PASSWORD_STRATEGIES.map((strategy) => [engine, strategy] as const)))('scheduled purges on %s, %s strategy', (engine, strategy) => {
  let t: TestApp;
  let client: RecoveryClient;
  beforeAll(async () => {
    t = await createTestApp({
      engine,
      strategy,
      imports: [ScheduleModule.forRoot()],
      options: { ...recoveryOptions(strategy), purge: { cron: '0 */6 * * *' }, rateLimit: { backend: 'database', windowSeconds: 60 } },
    });
    client = new RecoveryClient(t, strategy);
  });
  afterAll(() => t?.close());

  const count = async (table: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  it('registers one cron job that deletes expired credentials, spent reset tokens and ended limiter windows', async () => {
    await client.createUser('purged@x.io', 'correct horse');
    await client.requestToken('purged@x.io');
    const credentials = strategy === 'session' ? 'sessions' : 'refresh_tokens';
    expect(await count(credentials)).toBe(1);
    expect(await count('password_reset_tokens')).toBe(1);
    expect(await count('rate_limit_counters')).toBeGreaterThan(0);

    const job = t.app.get(SchedulerRegistry).getCronJob('svc-purge');
    expect(String(job.cronTime.source)).toBe('0 */6 * * *');
    await job.fireOnTick();
    expect(await count(credentials)).toBe(1);

    t.clock.advance(31 * DAY);
    await job.fireOnTick();
    expect(await count(credentials)).toBe(0);
    expect(await count('password_reset_tokens')).toBe(0);
    expect(await count('rate_limit_counters')).toBe(0);
  });

  it('AuthService.purgeExpired() reports what it deleted', async () => {
    await client.createUser('counted@x.io', 'correct horse');
    await client.requestToken('counted@x.io');
    const windows = await count('rate_limit_counters');
    expect(windows).toBeGreaterThan(0);
    t.clock.advance(31 * DAY);
    expect(await t.app.get(AuthService).purgeExpired()).toEqual({
      sessions: strategy === 'session' ? 1 : 0,
      refreshTokens: strategy === 'jwt' ? 1 : 0,
      refreshFamilies: strategy === 'jwt' ? 1 : 0,
      resetTokens: 1,
      emailTokens: 0,
      oauthUsedStates: 0,
      passkeyUsedChallenges: 0,
      rateLimitWindows: windows,
    });
    expect(await t.app.get(AuthService).purgeExpired()).toEqual({ sessions: 0, refreshTokens: 0, refreshFamilies: 0, resetTokens: 0, emailTokens: 0, oauthUsedStates: 0, passkeyUsedChallenges: 0, rateLimitWindows: 0 });
  });
});

describe('purge.cron without @nestjs/schedule wired in', () => {
  it('stops the application with a message saying what to add', async () => {
    await expect(createTestApp({ engine: 'sqlite', options: { purge: { cron: '0 * * * *' } } })).rejects.toThrow(
      'svc: purge.cron needs @nestjs/schedule: install it and add ScheduleModule.forRoot() to your application module',
    );
  });

  it('refuses an expression cron cannot read', async () => {
    await expect(createTestApp({ engine: 'sqlite', imports: [ScheduleModule.forRoot()], options: { purge: { cron: 'every hour' } } })).rejects.toThrow('purge.cron is not a cron expression');
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../../support/test-app.js';
import { accountName } from '../../rate-limit/support/account-name.js';

/** docs/guides/rate-limiting.md: the per-account key comes only from a valid address, so nothing malformed reaches a backend. */
describe.each(BEHAVIOUR_ENGINES)('the database rate limiter and malformed emails on %s', (engine) => {
  let t: TestApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    t = await createTestApp({ engine, logger, options: { secret: TEST_SECRET, rateLimit: { backend: 'database', max: 100 } } });
  });
  afterAll(() => t?.close());

  it.each([
    ['/auth/forgot-password', { email: 'victim@x.io\u0000' }],
    ['/auth/login', { email: 'victim\u0000@x.io', password: 'correct horse' }],
    ['/auth/login', { email: 'vic\u200btim@x.io', password: 'correct horse' }],
    ['/auth/forgot-password', { email: 'x'.repeat(400) + '@x.io' }],
  ])('%s %j: 400, counted per address only, no backend error', async (path, body) => {
    logger.clear();
    const response = await request(t.server).post(path).send(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(logger.lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
    const keys: { key: string }[] = await t.dataSource.query('SELECT "key" FROM rate_limit_counters');
    expect(keys.map((row) => row.key).filter((key) => key.startsWith('account:'))).toEqual([]);
    expect(keys.map((row) => row.key)).toContain(`127.0.0.1:${path}`);
  });

  it('a valid address is counted per account, normalised, under its HMAC: no key holds the email', async () => {
    expect((await request(t.server).post('/auth/forgot-password').send({ email: ' Victim@X.io ' })).status).toBe(202);
    await t.afterResponses();
    const keys: { key: string }[] = await t.dataSource.query('SELECT "key" FROM rate_limit_counters');
    expect(keys.map((row) => row.key)).toContain(`account:${accountName(TEST_SECRET, 'victim@x.io')}:/auth/forgot-password`);
    expect(keys.map((row) => row.key).filter((key) => key.toLowerCase().includes('victim'))).toEqual([]);
  });
});

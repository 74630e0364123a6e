import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { availableEngines } from '../../support/engines.js';
import { type ApiKeyApp, createApiKeyApp } from '../api-keys-kit.js';

// docs/decisions/0032-api-keys.md: the live keys are counted and the new one inserted under a lock of
// the user's row, so concurrent creations never pass maxPerUser (PostgreSQL runs them at once; SQLite
// one after the other).
const ENGINES = await availableEngines();
const MAX = 5;
const ATTEMPTS = 16;

describe.each(ENGINES)('the API key limit under concurrent creations on %s', (engine) => {
  let t: ApiKeyApp;

  beforeAll(async () => {
    t = await createApiKeyApp(engine, 'jwt', { apiKeys: { maxPerUser: MAX } });
  });
  afterAll(() => t.close());

  it(`creates exactly ${MAX} of ${ATTEMPTS} concurrent keys; the rest are 409 API_KEY_LIMIT`, async () => {
    const alice = await t.user('alice@example.io', ['owner']);
    const responses = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => t.call(alice, 'post', '/api-keys', { name: `k${i}` })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(MAX).fill(201), ...Array(ATTEMPTS - MAX).fill(409)]);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'API_KEY_LIMIT')).toBe(true);
    expect(await t.rows()).toHaveLength(MAX);
  });
});

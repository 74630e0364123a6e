import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** One client address for the limiter, the session rows and the events: behind a trusted proxy, the client's. */
describe.each(BEHAVIOUR_ENGINES)('trustProxy on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine, options: { trustProxy: ['loopback'], rateLimit: { max: 2 } } });
  });
  afterAll(() => t?.close());

  it('records the client, not the proxy, in the session row, the events and the limiter keys', async () => {
    const viaProxy = (address: string) => ({ 'X-Forwarded-For': `198.51.100.66, ${address}` });
    expect((await request(t.server).post('/auth/signup').set(viaProxy('203.0.113.9')).send({ email: 'proxied@x.io', password: 'correct horse' })).status).toBe(201);
    // The session row keeps the client's network only (docs/guides/devices.md).
    expect(await t.dataSource.query('SELECT ip FROM sessions')).toEqual([{ ip: '203.0.113.0' }]);

    expect((await request(t.server).post('/auth/login').set(viaProxy('203.0.113.10')).send({ email: 'proxied@x.io', password: 'wrong horse' })).status).toBe(401);
    const [failure] = await t.events.waitFor(AuthEvent.LoginFailure);
    expect(failure.ip).toBe('203.0.113.10');

    // Each client has its own count behind the one proxy.
    let serial = 0;
    const login = (address: string) => request(t.server).post('/auth/login').set(viaProxy(address)).send({ email: `someone${++serial}@x.io`, password: 'wrong horse' });
    expect((await login('203.0.113.11')).status).toBe(401);
    expect((await login('203.0.113.11')).status).toBe(401);
    expect((await login('203.0.113.11')).status).toBe(429);
    expect((await login('203.0.113.12')).status).toBe(401);
  });
});

describe('trustProxy and clientIpHeader at startup', () => {
  it.each([
    [{ trustProxy: ['not an address'] }, 'trustProxy holds something that is not an address or CIDR'],
    [{ trustProxy: 0 }, 'trustProxy must be between 1 and 16'],
    [{ clientIpHeader: 'x-real-ip' }, 'clientIpHeader needs trustProxy (which proxies may write it)'],
    [{ trustProxy: 1, rateLimit: { trustedIpHeader: 'x-forwarded-for' } }, 'rateLimit.trustedIpHeader is a shorthand for trustProxy: 1 and clientIpHeader'],
  ])('refuses %o', async (options, message) => {
    await expect(createTestApp({ engine: 'sqlite', options: options as never })).rejects.toThrow(message);
  });
});

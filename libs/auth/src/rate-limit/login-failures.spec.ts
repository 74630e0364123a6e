import { afterEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, type INestApplication, Post } from '@nestjs/common';
import request from 'supertest';
import { AuthError } from '../errors/auth.error.js';
import { TestClock } from '../testing/test-clock.js';
import { createLimitedApp, type RateLimitSettings, WINDOW_ALIGNED_EPOCH_MS } from './limited-app.spec-support.js';
import { MemoryRateLimitStorage } from './memory/memory-rate-limit.storage.js';
// The library's own decorator, to test the login rule on a small app.
import { AuthRateLimit } from './rate-limit.decorators.js';
import type { RateLimitStorage } from './rate-limit.storage.js';

/** A login whose outcome the body names: 'right' succeeds, 'inactive' is a correct password of an inactive user, anything else fails. */
@Controller()
class LoginRoute {
  @Post('login')
  @HttpCode(200)
  @AuthRateLimit({ accountFailures: true })
  login(@Body() body: { password?: string }) {
    if (body.password === 'right') return { ok: true };
    throw new AuthError(body.password === 'inactive' ? 'USER_INACTIVE' : 'INVALID_CREDENTIALS');
  }
}

/** A memory storage whose account counters cannot be written (a backend failing between the check and the count). */
class AccountCountsFail extends MemoryRateLimitStorage {
  override async check(key: string, windowSeconds: number, max: number) {
    if (key.startsWith('account:')) throw new Error('backend gone');
    return super.check(key, windowSeconds, max);
  }
}

// docs/guides/rate-limiting.md: on login, failures count per account and client; a ceiling per account slows a distributed guess.
describe('RateLimitGuard on login: failed attempts per account and client (memory)', () => {
  const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
  let app: INestApplication | undefined;

  async function start(rateLimit: Partial<RateLimitSettings> = {}, storage: RateLimitStorage = new MemoryRateLimitStorage(clock)) {
    clock.set(new Date(WINDOW_ALIGNED_EPOCH_MS));
    const created = await createLimitedApp({ storage, clock, rateLimit: { max: 3, windowSeconds: 60, trustedIpHeader: 'x-forwarded-for', ...rateLimit }, controllers: [LoginRoute] });
    app = created.app;
    const login = (from: string, password: string, email = 'alice@example.com') => request(created.server).post('/login').set('X-Forwarded-For', from).send({ email, password });
    return { login, statuses: async (from: string, password: string, times: number) => {
      const seen: number[] = [];
      for (let i = 0; i < times; i++) seen.push((await login(from, password)).status);
      return seen;
    } };
  }

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("another client's failures never refuse a client that has not failed; the failing one meets its own limit", async () => {
    const { login, statuses } = await start();
    expect(await statuses('198.51.100.1', 'wrong', 4)).toEqual([401, 401, 401, 429]);
    const owner = await login('198.51.100.2', 'right', ' ALICE@example.com');
    expect(owner.status).toBe(200);
    expect(owner.headers['ratelimit-remaining']).toBe('2');
    expect((await login('198.51.100.2', 'wrong')).status).toBe(401);
  });

  it('past the ceiling, a client that has failed for the account is refused, one that has not is served', async () => {
    const { login, statuses } = await start({ accountCeiling: 4 });
    expect(await statuses('198.51.100.1', 'wrong', 3)).toEqual([401, 401, 401]);
    // A fresh client is let through and its failure counted: the account is at its ceiling now.
    expect((await login('198.51.100.2', 'wrong')).status).toBe(401);
    const refused = await login('198.51.100.2', 'right');
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // No failure of its own: never refused for the account, whatever the others did.
    expect((await login('198.51.100.3', 'right')).status).toBe(200);
    expect((await login('198.51.100.3', 'wrong')).status).toBe(401);
    expect((await login('198.51.100.3', 'right')).status).toBe(429);
    // Another account is not touched, and the next window starts clean.
    expect((await login('198.51.100.2', 'right', 'bob@example.com')).status).toBe(200);
    clock.advance(60_000);
    expect((await login('198.51.100.2', 'right')).status).toBe(200);
  });

  it('counts failed logins only: correct passwords and other refusals spend nothing of the ceiling', async () => {
    const { login, statuses } = await start({ accountCeiling: 3 });
    expect(await statuses('198.51.100.1', 'right', 3)).toEqual([200, 200, 200]);
    expect(await statuses('198.51.100.2', 'inactive', 3)).toEqual([403, 403, 403]);
    expect((await login('198.51.100.3', 'wrong')).status).toBe(401);
    expect((await login('198.51.100.3', 'wrong')).status).toBe(401);
    expect((await login('198.51.100.4', 'wrong')).status).toBe(401);
    // Three failures in all: the ceiling. Client .3 has failed; .5 has not.
    expect((await login('198.51.100.3', 'right')).status).toBe(429);
    expect((await login('198.51.100.5', 'right')).status).toBe(200);
  });

  it('a failure that cannot be counted fails closed (503) by default, and is let through with onBackendError allow', async () => {
    const denying = await start({}, new AccountCountsFail(clock));
    const denied = await denying.login('198.51.100.1', 'wrong');
    expect([denied.status, denied.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    // Nothing is counted for a correct password, so nothing can fail.
    expect((await denying.login('198.51.100.1', 'right')).status).toBe(200);
    await app!.close();
    const allowing = await start({ onBackendError: 'allow' }, new AccountCountsFail(clock));
    expect((await allowing.login('198.51.100.1', 'wrong')).status).toBe(401);
  });

  it('a body without a valid email is counted by address only', async () => {
    const { login } = await start({ accountCeiling: 3 });
    for (const email of ['not an email', 'x\u0000@example.com']) expect((await login('198.51.100.1', 'wrong', email)).status).toBe(401);
    expect((await login('198.51.100.1', 'wrong', 'a@example.com')).status).toBe(401);
    expect((await login('198.51.100.1', 'wrong', 'a@example.com')).status).toBe(429);
  });
});

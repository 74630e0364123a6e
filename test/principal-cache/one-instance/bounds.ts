import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CurrentUser, CurrentUserGuard, type UserBody } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createTestApp, TestClock } from '../../support/test-app.js';
import { type CacheApp, createCacheApp, type Credential, type CredentialKind } from '../cache-kit.js';

// docs/guides/principal-cache.md: memory is bounded (least recently used out first), the TTL is a
// backstop read from the injected clock, and a cache no revocation could reach is refused at startup.
// SQLite runs it with `invalidation: 'local'` (one instance alone on its database).
const CREDENTIALS: CredentialKind[] = ['session', 'jwt'];
const MAX_ENTRIES = 100;
const TTL_SECONDS = 60;

/** An application route that writes to the user it is given, as careless code might. */
@Controller()
class CarelessRoutes {
  @Get('careless')
  @UseGuards(CurrentUserGuard)
  careless(@CurrentUser() user: UserBody): UserBody {
    (user as { email: string }).email = 'overwritten@example.io';
    return user;
  }
}

const cases = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(cases)('the principal cache on %s, %s credential', (engine, credential) => {
  const clock = new TestClock();
  let t: CacheApp;

  beforeAll(async () => {
    t = await createCacheApp({
      engine,
      credential,
      clock,
      controllers: [CarelessRoutes],
      principalCache: { maxEntries: MAX_ENTRIES, ttlSeconds: TTL_SECONDS, ...(engine === 'sqlite' ? { invalidation: 'local' } : {}) },
    });
  });
  afterAll(() => t.close());

  /** A new user signed in without a password round trip (svc/testing), with its credential. */
  async function signedIn(): Promise<Credential> {
    const { user, headers } = await signIn(t.app, `bounds-${randomBytes(4).toString('hex')}@example.io`);
    return { userId: user.id, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])) };
  }

  /** The statements GET /me ran for the credential (0: served from the cache). */
  async function statementsOfMe(held: Credential, status = 200): Promise<number> {
    const before = t.statements();
    expect(await t.me(held)).toBe(status);
    return t.statements() - before;
  }

  it(`holds at most ${MAX_ENTRIES} principals: past it, the least recently used is read again`, async () => {
    // The users are made before the cache sees any of them: on PostgreSQL side by side (its pool), on SQLite (one connection) one after another.
    const users: Credential[] = [];
    if (engine === 'postgres') users.push(...(await Promise.all(Array.from({ length: MAX_ENTRIES + 1 }, () => signedIn()))));
    else for (let i = 0; i <= MAX_ENTRIES; i++) users.push(await signedIn());
    for (const held of users.slice(0, MAX_ENTRIES)) expect(await statementsOfMe(held)).toBeGreaterThan(0);
    expect(await statementsOfMe(users[0])).toBe(0);
    // One more: the least recently used (users[1], since users[0] was just used) makes room.
    expect(await statementsOfMe(users[MAX_ENTRIES])).toBeGreaterThan(0);
    expect(await statementsOfMe(users[0])).toBe(0);
    expect(await statementsOfMe(users[MAX_ENTRIES])).toBe(0);
    expect(await statementsOfMe(users[1])).toBeGreaterThan(0);
  });

  it(`serves a principal ${TTL_SECONDS} s at most (the injected clock), then reads it again`, async () => {
    const held = await signedIn();
    expect(await statementsOfMe(held)).toBeGreaterThan(0);
    clock.advance((TTL_SECONDS - 1) * 1000);
    expect(await statementsOfMe(held)).toBe(0);
    clock.advance(1000);
    expect(await statementsOfMe(held)).toBeGreaterThan(0);
    expect(await statementsOfMe(held)).toBe(0);
  });

  it('a revocation on this instance is honoured at its very next request, and a deactivation too', async () => {
    const held = await signedIn();
    expect(await statementsOfMe(held)).toBeGreaterThan(0);
    expect(await statementsOfMe(held)).toBe(0);
    expect((await t.send('POST', '/auth/logout', held)).status).toBe(204);
    expect(await t.me(held)).toBe(401);

    const other = await signedIn();
    await statementsOfMe(other);
    expect(await statementsOfMe(other)).toBe(0);
    expect(await t.auth.deactivateUser(other.userId)).toBe(true);
    expect(await t.me(other)).toBe(401);
  });

  it('what a request does to request.user stays in that request (each gets a copy of the cached principal)', async () => {
    const held = await signedIn();
    const bearerOnly = credential === 'jwt' ? { ...held, headers: { authorization: held.headers.authorization } } : held;
    const original = (await (await t.send('GET', '/auth/me', bearerOnly)).json()) as { email: string };
    expect(((await (await t.send('GET', '/careless', bearerOnly)).json()) as { email: string }).email).toBe('overwritten@example.io');
    expect(await statementsOfMe(held)).toBe(0);
    expect(((await (await t.send('GET', '/auth/me', bearerOnly)).json()) as { email: string }).email).toBe(original.email);
  });
});

describe('a principal cache that no revocation could reach is refused at startup', () => {
  it.each([
    [{}, "principalCache.invalidation has no way to reach other instances on better-sqlite3: give principalCache.redis, or 'local' if this instance runs alone on its database"],
    [{ invalidation: 'postgres' as const }, "principalCache.invalidation is 'postgres' but the database is better-sqlite3"],
  ])('on SQLite with %j', async (principalCache, message) => {
    await expect(createTestApp({ engine: 'sqlite', options: { principalCache } })).rejects.toThrow(message);
  });
});

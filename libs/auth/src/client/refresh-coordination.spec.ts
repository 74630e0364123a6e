import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ClientClock } from './client-clock.js';
import { createSvcClient } from './create-svc-client.js';
import { isSvcError } from './svc-client-error.js';

/** A clock that moves only when told, running the timers that fall due on the way. */
class FakeClientClock implements ClientClock {
  private time = Date.UTC(2026, 10, 21, 10);
  private nextHandle = 1;
  readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + delayMs, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = until;
  }
}

const USER = { id: '7d1f0a52-7c43-4d8e-9a51-2b7f3f1f6a10', email: 'ada@example.com' };
const LIFETIME_S = 900;

interface Seen {
  path: string;
  authorization: string | null;
  native: string | null;
  body: unknown;
}

/**
 * A fake server of the jwt routes: tokens `access-<n>` expire with the fake clock; `/refresh`
 * answers after `release()` when held, or refuses when told to; `/me` checks the token's time.
 */
class FakeServer {
  readonly seen: Seen[] = [];
  issued = 0;
  refuseRefresh = false;
  private readonly expiries = new Map<string, number>();
  private held: (() => void)[] | null = null;

  constructor(private readonly clock: FakeClientClock) {}

  /** Every access token issued so far is refused from now on. */
  forgetTokens(): void {
    this.expiries.clear();
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const resume of waiting) resume();
  }

  count(path: string): number {
    return this.seen.filter((one) => one.path === path).length;
  }

  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const path = new URL(input).pathname.replace(/^\/auth/, '');
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    this.seen.push({ path, authorization: headers.get('authorization'), native: headers.get('x-svc-client'), body });
    if (path === '/login') return this.tokens({ refresh_token: 'refresh-1' });
    if (path === '/refresh') {
      if (this.held) await new Promise<void>((resume) => this.held!.push(resume));
      if (this.refuseRefresh) return json(401, { statusCode: 401, error: 'Unauthorized', message: 'Refresh token is invalid', code: 'REFRESH_TOKEN_INVALID' });
      return this.tokens({ refresh_token: `refresh-${this.issued + 1}` });
    }
    if (path === '/logout') return new Response(null, { status: 204 });
    const token = headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const expiry = this.expiries.get(token);
    if (expiry === undefined || this.clock.now() >= expiry) return json(401, { statusCode: 401, error: 'Unauthorized', message: 'Authentication required', code: 'UNAUTHENTICATED' });
    return json(200, USER);
  };

  private tokens(extra: Record<string, string>): Response {
    const token = `access-${++this.issued}`;
    this.expiries.set(token, this.clock.now() + LIFETIME_S * 1000);
    return json(200, { access_token: token, token_type: 'bearer', expires_in: LIFETIME_S, ...extra });
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('refresh coordination of a jwt client', () => {
  let clock: FakeClientClock;
  let server: FakeServer;

  beforeEach(() => {
    clock = new FakeClientClock();
    server = new FakeServer(clock);
  });

  const browserClient = () => createSvcClient({ baseUrl: 'https://app.test', credential: 'jwt', fetch: server.fetch, clock });

  it('keeps the access token in memory and presents it as a bearer token', async () => {
    const client = browserClient();
    await expect(client.login(USER.email, 'pw')).resolves.toEqual({ status: 'signed-in', user: USER });
    expect(server.seen.at(-1)).toMatchObject({ path: '/me', authorization: 'Bearer access-1' });
    expect(client.getSnapshot()).toEqual({ status: 'signed-in', user: USER });
    client.dispose();
  });

  it('sends ONE refresh for 100 concurrent requests that meet an expired token, and all of them go on with the new token', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    client.dispose(); // no renewal: the token is left to expire
    clock.advance(LIFETIME_S * 1000 + 1);
    server.hold();
    const requests = Array.from({ length: 100 }, () => client.me());
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.count('/refresh')).toBe(1);
    server.release();
    await expect(Promise.all(requests)).resolves.toHaveLength(100);
    expect(server.count('/refresh')).toBe(1);
    expect(server.seen.filter((one) => one.path === '/me').slice(-100).every((one) => one.authorization === 'Bearer access-2')).toBe(true);
  });

  it('retries a request refused with 401 UNAUTHENTICATED once, after ONE refresh shared by every request refused meanwhile', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    client.dispose();
    // The server refuses the token before its time (a key rotated, a clock apart); the client still thinks it good.
    server.forgetTokens();
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.me().catch((error: unknown) => error)));
    expect(answers.every((answer) => !isSvcError(answer))).toBe(true);
    expect(server.seen.filter((one) => one.path === '/me' && one.authorization === 'Bearer access-1')).toHaveLength(21);
    expect(server.seen.filter((one) => one.path === '/me' && one.authorization === 'Bearer access-2')).toHaveLength(20);
    expect(server.count('/refresh')).toBe(1);
  });

  it('signs the store out ONCE when the refresh is refused, however many requests waited for it, and every one of them fails as with a session gone', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    client.dispose();
    const states: string[] = [];
    client.subscribe(() => states.push(client.getSnapshot().status));
    clock.advance(LIFETIME_S * 1000 + 1);
    server.refuseRefresh = true;
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.me().catch((error: unknown) => error)));
    expect(server.count('/refresh')).toBe(1);
    expect(states).toEqual(['signed-out']);
    expect(answers.every((answer) => isSvcError(answer) && answer.code === 'UNAUTHENTICATED')).toBe(true);
    // Signed out: a later request tries no refresh, and says so once more to nobody.
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(server.count('/refresh')).toBe(1);
    expect(states).toEqual(['signed-out']);
  });

  it('renews the access token shortly before it expires, on the clock, with no request waiting', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    clock.advance(LIFETIME_S * 1000 - 61_000);
    expect(server.count('/refresh')).toBe(0);
    clock.advance(2_000);
    expect(server.count('/refresh')).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await client.me();
    expect(server.seen.at(-1)).toMatchObject({ path: '/me', authorization: 'Bearer access-2' });
    // And again for the new token: the renewal keeps going for as long as the client lives.
    clock.advance(LIFETIME_S * 1000);
    expect(server.count('/refresh')).toBe(2);
    client.dispose();
    expect(clock.timers.size).toBe(0);
  });

  it('native: sends X-Svc-Client, keeps the refresh token in the storage adapter, rotates it and sends it in the body of /refresh and /logout', async () => {
    let stored: string | null = null;
    const storage = {
      get: async () => stored,
      set: async (token: string) => void (stored = token),
      delete: async () => void (stored = null),
    };
    const client = createSvcClient({ baseUrl: 'https://app.test', credential: 'session', native: { storage }, fetch: server.fetch, clock });
    await client.login(USER.email, 'pw');
    expect(stored).toBe('refresh-1');
    expect(server.seen.every((one) => one.native === 'native')).toBe(true);
    clock.advance(LIFETIME_S * 1000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.seen.find((one) => one.path === '/refresh')?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(stored).toBe('refresh-2');
    await client.logout();
    expect(server.seen.at(-1)).toMatchObject({ path: '/logout', body: { refresh_token: 'refresh-2' } });
    expect(stored).toBeNull();
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
    expect(clock.timers.size).toBe(0);
  });

  it('native: a restart restores the session from the stored refresh token', async () => {
    let stored: string | null = 'refresh-9';
    const storage = { get: () => stored, set: (token: string) => void (stored = token), delete: () => void (stored = null) };
    const client = createSvcClient({ baseUrl: 'https://app.test', credential: 'jwt', native: { storage }, fetch: server.fetch, clock });
    await expect(client.restore()).resolves.toEqual({ status: 'signed-in', user: USER });
    expect(server.seen[0]).toMatchObject({ path: '/refresh', body: { refresh_token: 'refresh-9' } });
    expect(stored).toBe('refresh-1');
    client.dispose();
  });

  it('native: a request before restore() presents no token, and leaves the stored refresh token alone', async () => {
    let stored: string | null = 'refresh-9';
    const storage = { get: () => stored, set: (token: string) => void (stored = token), delete: () => void (stored = null) };
    const client = createSvcClient({ baseUrl: 'https://app.test', credential: 'jwt', native: { storage }, fetch: server.fetch, clock });
    await expect(client.me()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(stored).toBe('refresh-9');
    await expect(client.restore()).resolves.toMatchObject({ status: 'signed-in' });
    client.dispose();
  });

  it('logs out with an expired access token without refreshing it first, and signs out here', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    client.dispose();
    clock.advance(LIFETIME_S * 1000 + 1);
    await client.logout();
    expect(server.count('/refresh')).toBe(0);
    expect(server.seen.at(-1)).toMatchObject({ path: '/logout', authorization: 'Bearer access-1' });
    expect(client.getSnapshot()).toEqual({ status: 'signed-out' });
  });

  it('reauth: a REAUTH_REQUIRED answer asks the user to sign in again; reauth takes the new access token and signs back in', async () => {
    const client = browserClient();
    await client.login(USER.email, 'pw');
    const fetchBefore = server.fetch;
    const reauthing = async (input: string, init: RequestInit): Promise<Response> => {
      const path = new URL(input).pathname;
      if (path === '/auth/passkeys/register/options') return json(403, { statusCode: 403, error: 'Forbidden', message: 'Sign in again', code: 'REAUTH_REQUIRED', methods: ['password', 'totp'] });
      if (path === '/auth/reauth') return json(200, { access_token: 'access-fresh', token_type: 'bearer', expires_in: LIFETIME_S });
      return fetchBefore(input, init);
    };
    const again = createSvcClient({ baseUrl: 'https://app.test', credential: 'jwt', fetch: reauthing, clock });
    await again.login(USER.email, 'pw');
    await expect(again.passkeys.register()).rejects.toMatchObject({ code: 'REAUTH_REQUIRED', methods: ['password', 'totp'] });
    expect(again.getSnapshot()).toEqual({ status: 'reauth-required', user: USER, methods: ['password', 'totp'] });
    await again.reauth({ password: 'pw' });
    expect(again.getSnapshot()).toEqual({ status: 'signed-in', user: USER });
    await again.logout();
    expect(server.seen.at(-1)).toMatchObject({ path: '/logout', authorization: 'Bearer access-fresh' });
    client.dispose();
  });

  it('keeps one snapshot object between changes (useSyncExternalStore)', async () => {
    const client = browserClient();
    const before = client.getSnapshot();
    expect(client.getSnapshot()).toBe(before);
    await client.login(USER.email, 'pw');
    const signedIn = client.getSnapshot();
    expect(signedIn).not.toBe(before);
    await client.me();
    expect(client.getSnapshot()).toBe(signedIn);
    client.dispose();
  });
});

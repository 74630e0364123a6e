import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { availableEngines, behaviourOnly } from '../../support/engines.js';
import { type AdminApp, createAdminApp, type Held } from '../admin-kit.js';

// docs/guides/administration.md, "Finding users": newest first, keyset paging on (created_at, id)
// with a signed cursor, a prefix of the normalised email, inactive users listed too. The list's own
// statement (the row comparison of the page's start, the prefix as LIKE on PostgreSQL and as a BINARY
// range on SQLite) runs on every engine; the refusals and the details are behaviour, on SQLite. None
// of it is about the credential: the session credential alone.
const cases = (await availableEngines()).map((engine) => [engine, 'session'] as const);

describe.each(cases)('the user list on %s, %s credential', (engine, credential) => {
  const behaviourIt = behaviourOnly(engine, it);
  let t: AdminApp;
  let admin: Held;
  /** The users newest first, as the list must give them. */
  const newestFirst: string[] = [];

  beforeAll(async () => {
    t = await createAdminApp(engine, credential);
    admin = await t.user('root@example.io', ['admin']);
    const emails = ['bob@example.io', 'bea@example.io', 'carl@example.io', 'b_x@example.io', 'dora@example.io'];
    for (const email of emails) await t.user(email);
    // Distinct signup times, one minute apart, the admin oldest: the order does not hang on the clock's resolution.
    const all = ['root@example.io', ...emails];
    for (const [i, email] of all.entries()) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await t.dataSource.query(engine === 'postgres' ? 'UPDATE users SET created_at = $1 WHERE email = $2' : "UPDATE users SET created_at = strftime('%Y-%m-%d %H:%M:%f', ?) WHERE email = ?", [at, email]);
    }
    newestFirst.push(...[...all].reverse());
    // An inactive user is listed like any other.
    const dora = await t.auth.findUserById((await t.call(admin, 'get', '/admin/users?query=dora').expect(200)).body.users[0].id);
    await t.auth.deactivateUser(dora!.id);
  });
  afterAll(() => t.close());

  it('lists every user newest first with isActive and createdAt, page by page, until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: request.Response = await t.call(admin, 'get', `/admin/users?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
      expect(response.body.users.length).toBeLessThanOrEqual(2);
      for (const user of response.body.users) {
        expect(user).toEqual(expect.objectContaining({ id: expect.any(String), email: expect.any(String), isActive: expect.any(Boolean), createdAt: expect.any(String) }));
        expect(user).not.toHaveProperty('passwordHash');
        seen.push(user.email);
      }
      cursor = response.body.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(seen).toEqual(newestFirst);
    expect(pages).toBe(3);
    const first = (await t.call(admin, 'get', '/admin/users').expect(200)).body;
    expect(first.nextCursor).toBeNull();
    expect(first.users.find((user: { email: string }) => user.email === 'dora@example.io').isActive).toBe(false);
    expect(first.users[0].createdAt).toBe('2026-01-01T00:05:00.000Z');
  });

  it('narrows the list to the emails that start with the query, normalised (case, NFKC), and pages within it', async () => {
    const page = (await t.call(admin, 'get', '/admin/users?query=%EF%BC%A2&limit=2').expect(200)).body;
    expect(page.users.map((user: { email: string }) => user.email)).toEqual(['b_x@example.io', 'bea@example.io']);
    const next = (await t.call(admin, 'get', `/admin/users?query=B&limit=2&cursor=${encodeURIComponent(page.nextCursor)}`).expect(200)).body;
    expect(next).toEqual({ users: [expect.objectContaining({ email: 'bob@example.io' })], nextCursor: null });
    // LIKE's wildcards are plain characters in a query.
    const literal = (await t.call(admin, 'get', '/admin/users?query=b_').expect(200)).body;
    expect(literal.users.map((user: { email: string }) => user.email)).toEqual(['b_x@example.io']);
    expect((await t.call(admin, 'get', '/admin/users?query=%25').expect(200)).body.users).toEqual([]);
  });

  behaviourIt('refuses a cursor it did not issue, or issued for another query, with 400 VALIDATION_FAILED', async () => {
    const { nextCursor } = (await t.call(admin, 'get', '/admin/users?limit=1').expect(200)).body;
    const [payload, mac] = nextCursor.split('.');
    const forged = `${Buffer.from(JSON.stringify(['2999-01-01 00:00:00', '00000000-0000-4000-8000-000000000000'])).toString('base64url')}.${mac}`;
    for (const cursor of ['garbage', `${payload}.${'A'.repeat(mac.length)}`, forged, `${nextCursor}.x`]) {
      const response = await t.call(admin, 'get', `/admin/users?cursor=${encodeURIComponent(cursor)}`).expect(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.call(admin, 'get', `/admin/users?query=b&cursor=${encodeURIComponent(nextCursor)}`).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  behaviourOnly(engine, it.each(['0', '101', '2.5', 'ten', '-1']))('refuses limit=%s with 400 VALIDATION_FAILED', async (limit) => {
    expect((await t.call(admin, 'get', `/admin/users?limit=${limit}`).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  behaviourIt('refuses a query that no email holds (a control character, a list) with 400', async () => {
    expect((await t.call(admin, 'get', '/admin/users?query=a%E2%80%8Bb').expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await t.call(admin, 'get', '/admin/users?query=a&query=b').expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  behaviourIt("answers one user's details: the summary, the ways in, the second factors and the live credentials", async () => {
    const bob = (await t.call(admin, 'get', '/admin/users?query=bob').expect(200)).body.users[0];
    await t.user('bob@example.io');
    const details = (await t.call(admin, 'get', `/admin/users/${bob.id}`).expect(200)).body;
    expect(details).toEqual(
      expect.objectContaining({ id: bob.id, email: 'bob@example.io', isActive: true, createdAt: bob.createdAt, loginMethods: { password: false, identities: [] }, mfa: { totp: false }, sessions: 2 }),
    );
  });

  behaviourIt('answers 404 NOT_FOUND for an unknown or malformed user id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await t.call(admin, 'get', `/admin/users/${id}`).expect(404)).body.code).toBe('NOT_FOUND');
    }
  });
});

import { AuthEvent } from '#svc/auth';
import request from 'supertest';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL, createDevicesApp, type CredentialKind, deviceTable, type DevicesApp, MINUTE } from '../devices-kit.js';

const CREDENTIALS: CredentialKind[] = ['session', 'jwt'];
const CASES = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

/** GET and DELETE /sessions (docs/guides/devices.md), on each engine with each credential. */
describe.each(CASES)('devices on %s, %s credential', (engine, credential) => {
  let t: DevicesApp;
  beforeAll(async () => {
    t = await createDevicesApp(engine, credential);
  });
  afterAll(() => t?.close());

  const table = deviceTable(credential);
  let serial = 0;
  const email = (label: string) => `${label}-${++serial}@x.io`;

  it('lists the live ones newest first: id, created and last used, the user agent, which one is this request', async () => {
    const address = email('lister');
    const laptop = await t.signup(address, { userAgent: FIREFOX, address: '203.0.113.77' });
    t.clock.advance(MINUTE);
    const phone = await t.login(address, { userAgent: PHONE, address: '2001:db8:85a3:8d3:1319:8a2e:370:7348' });
    t.clock.advance(MINUTE);
    const bare = await t.login(address);
    const [laptopId, phoneId, bareId] = [await t.idOf(laptop), await t.idOf(phone), await t.idOf(bare)];

    const listed = await t.list(phone);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: bareId, createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: null, current: false },
      { id: phoneId, createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: PHONE, current: true },
      { id: laptopId, createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: FIREFOX, current: false },
    ]);
    const [bareEntry, , laptopEntry] = listed.body as { createdAt: string; lastUsedAt: string }[];
    expect(new Date(laptopEntry.createdAt).getTime()).toBe(new Date(bareEntry.createdAt).getTime() - 2 * MINUTE);
    expect(laptopEntry.lastUsedAt).toBe(laptopEntry.createdAt);
    expect((await t.list(laptop)).body.map((entry: { current: boolean }) => entry.current)).toEqual([false, false, true]);

    // The rows keep the client's network, never its address (IPv4 /24, IPv6 /48).
    const rows: { id: string; ip: string | null }[] = await t.dataSource.query(`SELECT id, ip FROM ${table} WHERE user_id = '${laptop.userId}'`);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.ip]))).toEqual({ [laptopId]: '203.0.113.0', [phoneId]: '2001:db8:85a3::', [bareId]: '127.0.0.0' });
  });

  it('keeps at most 512 characters of a user agent, in the row and in the list', async () => {
    const long = `Agent/1.0 ${'x'.repeat(2000)}`;
    const held = await t.signup(email('long-agent'), { userAgent: long });
    const [entry] = (await t.list(held)).body;
    expect(entry.userAgent).toBe(long.slice(0, 512));
    const [row] = await t.dataSource.query(`SELECT user_agent FROM ${table} WHERE user_id = '${held.userId}'`);
    expect(row.user_agent).toBe(long.slice(0, 512));
  });

  it('records the last use: a request (session, at most every 5 minutes) or a refresh (jwt)', async () => {
    const held = await t.signup(email('user'));
    const [{ createdAt }] = (await t.list(held)).body;
    t.clock.advance(6 * MINUTE);
    if (credential === 'jwt') expect((await t.refresh(held)).status).toBe(200);
    else expect((await t.me(held)).status).toBe(200);
    const [entry] = (await t.list(held)).body;
    expect(entry).toMatchObject({ createdAt, current: true });
    expect(new Date(entry.lastUsedAt).getTime()).toBe(new Date(createdAt).getTime() + 6 * MINUTE);
  });

  it('ends one of them: 204, refused at its next request (a jwt family: its access token at once, and its refresh token), the others live on', async () => {
    const address = email('revoker');
    const kept = await t.signup(address);
    const lost = await t.login(address);
    const lostId = await t.idOf(lost);
    expect((await t.me(lost)).status).toBe(200);

    const revoked = await t.revoke(kept, lostId);
    expect(revoked.status).toBe(204);
    const refused = await t.me(lost);
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    if (credential === 'jwt') expect((await t.refresh(lost)).status).toBe(401);
    expect((await t.me(kept)).status).toBe(200);
    expect((await t.list(kept)).body.map((entry: { id: string }) => entry.id)).toEqual([await t.idOf(kept)]);
    // Ended is ended: the same id again is unknown.
    expect((await t.revoke(kept, lostId)).status).toBe(404);
  });

  it('ends its own, the current one: 204 and that credential is refused', async () => {
    const held = await t.signup(email('self'));
    expect((await t.revoke(held, await t.idOf(held))).status).toBe(204);
    expect((await t.me(held)).status).toBe(401);
  });

  it("another user's id, an unknown id or no id at all: 404 NOT_FOUND, nothing ended", async () => {
    const owner = await t.signup(email('owner'));
    const stranger = await t.signup(email('stranger'));
    const ownerId = await t.idOf(owner);
    for (const id of [ownerId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', ownerId.toUpperCase().replace(/-/g, '')]) {
      const refused = await t.revoke(stranger, id);
      expect([refused.status, refused.body.code]).toEqual([404, 'NOT_FOUND']);
      expect(refused.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'No such session', code: 'NOT_FOUND' });
    }
    expect((await t.me(owner)).status).toBe(200);
    expect((await t.list(owner)).body).toHaveLength(1);
  });

  it('an id that is not valid percent-encoding: 400 VALIDATION_FAILED with the error body, signed in or not, nothing ended', async () => {
    const held = await t.signup(email('undecodable'));
    for (const id of ['%ZZ', '%E0%A4%A', 'abc%']) {
      for (const refused of [await t.revoke(held, id), await request(t.server).delete(`/auth/sessions/${id}`)]) {
        expect([id, refused.status, refused.body]).toEqual([id, 400, { statusCode: 400, error: 'Bad Request', message: ['path: a parameter is not valid percent-encoding'], code: 'VALIDATION_FAILED' }]);
        expect(refused.headers['cache-control']).toBe('no-store');
      }
    }
    expect((await t.me(held)).status).toBe(200);
  });

  it('ends every one but the current: 204, the others refused, this one kept; one svc.session.revoked per id', async () => {
    const address = email('everywhere');
    const first = await t.signup(address);
    const second = await t.login(address);
    const current = await t.login(address);
    const [firstId, secondId, currentId] = [await t.idOf(first), await t.idOf(second), await t.idOf(current)];

    expect((await t.revokeOthers(current)).status).toBe(204);
    expect((await t.me(first)).status).toBe(401);
    expect((await t.me(second)).status).toBe(401);
    expect((await t.me(current)).status).toBe(200);
    expect((await t.list(current)).body).toEqual([expect.objectContaining({ id: currentId, current: true })]);

    await t.afterResponses();
    const events = t.events.payloadsOf(AuthEvent.SessionRevoked).filter((event) => event.userId === current.userId);
    expect(events.sort((a, b) => String(a.sessionId).localeCompare(String(b.sessionId)))).toEqual(
      [firstId, secondId].sort().map((sessionId) => ({ userId: current.userId, sessionId, by: 'user' })),
    );
    // Nothing else to end: 204 again, and no event.
    expect((await t.revokeOthers(current)).status).toBe(204);
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.SessionRevoked).filter((event) => event.userId === current.userId)).toHaveLength(2);
  });

  it('publishes svc.session.revoked for one ended by id, and nothing for a refusal', async () => {
    const address = email('announced');
    const kept = await t.signup(address);
    const lost = await t.login(address);
    const lostId = await t.idOf(lost);
    expect((await t.revoke(kept, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.revoke(kept, lostId)).status).toBe(204);
    await t.afterResponses();
    expect(t.events.payloadsOf(AuthEvent.SessionRevoked).filter((event) => event.userId === kept.userId)).toEqual([{ userId: kept.userId, sessionId: lostId, by: 'user' }]);
  });

  it('needs the credential: 401 without one, or with an ended one', async () => {
    for (const test of [request(t.server).get('/auth/sessions'), request(t.server).delete('/auth/sessions'), request(t.server).delete('/auth/sessions/00000000-0000-4000-8000-000000000000')]) {
      const refused = await test;
      expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    }
  });

  it('refuses a cookie-authenticated DELETE from another origin: 403 CSRF_REJECTED, nothing ended', async () => {
    const address = email('cross-site');
    const kept = await t.signup(address);
    const target = await t.login(address);
    const targetId = await t.idOf(target);
    const cookie = credential === 'jwt' ? `svc_refresh=${kept.refresh}` : `svc_session=${kept.session}`;
    const crossSite = (test: request.Test) => {
      test.set('Cookie', cookie).set('Origin', 'https://evil.example');
      return credential === 'jwt' ? test.set('Authorization', `Bearer ${kept.access}`) : test;
    };
    for (const test of [crossSite(request(t.server).delete(`/auth/sessions/${targetId}`)), crossSite(request(t.server).delete('/auth/sessions'))]) {
      const refused = await test;
      expect([refused.status, refused.body.code]).toEqual([403, 'CSRF_REJECTED']);
    }
    expect((await t.me(target)).status).toBe(200);
    // From the application's own origin it goes through.
    expect((await crossSite(request(t.server).delete(`/auth/sessions/${targetId}`)).set('Origin', BASE_URL)).status).toBe(204);
    expect((await t.me(target)).status).toBe(401);
  });
});

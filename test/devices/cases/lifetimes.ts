import { AuthService } from '#svc/auth';
import { cookieHolder as holderOf } from '#svc/auth/testing';
import { availableEngines } from '../../support/engines.js';
import { createDevicesApp, type DevicesApp, type Held, HOUR, MINUTE } from '../devices-kit.js';

const ENGINES = await availableEngines();

/** Who the credential's cookie names, as a provider's link callback asks it (docs/guides/linking.md). */
async function cookieHolder(t: DevicesApp, held: Held): Promise<string | null> {
  const cookie = t.credential === 'jwt' ? `svc_refresh=${held.refresh}` : `svc_session=${held.session}`;
  return holderOf(t.app, cookie);
}

const count = async (t: DevicesApp, table: string, userId: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = '${userId}'`))[0].n);

/** session.absoluteTtlSeconds (docs/guides/devices.md): an hour here, the sessions themselves lasting 7 days. */
describe.each(ENGINES)('the absolute lifetime of a session on %s', (engine) => {
  let t: DevicesApp;
  beforeAll(async () => {
    t = await createDevicesApp(engine, 'session', { session: { absoluteTtlSeconds: 3600 } });
  });
  afterAll(() => t?.close());

  it('used a minute before its end it works; at its end it is refused (401) however recently it was used, wherever it is checked', async () => {
    const old = await t.signup('old-session@x.io');
    t.clock.advance(30 * MINUTE);
    const younger = await t.login('old-session@x.io');
    t.clock.advance(29 * MINUTE);
    expect((await t.me(old)).status).toBe(200);
    expect(await cookieHolder(t, old)).toBe(old.userId);
    expect((await t.list(younger)).body).toHaveLength(2);

    t.clock.advance(MINUTE);
    const refused = await t.me(old);
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(await cookieHolder(t, old)).toBeNull();
    expect((await t.list(old)).status).toBe(401);
    // The younger one lives on, and no longer lists the ended one, nor may end it.
    expect((await t.list(younger)).body.map((entry: { current: boolean }) => entry.current)).toEqual([true]);
    expect((await t.revoke(younger, await t.idOf(old))).status).toBe(404);
  });

  it('the purge deletes sessions past their absolute lifetime, and keeps the others', async () => {
    const ended = await t.signup('purged-session@x.io');
    t.clock.advance(HOUR - MINUTE);
    const live = await t.signup('kept-session@x.io');
    t.clock.advance(MINUTE);
    const { sessions } = await t.app.get(AuthService).purgeExpired();
    expect(sessions).toBeGreaterThanOrEqual(1);
    expect(await count(t, 'sessions', ended.userId)).toBe(0);
    expect(await count(t, 'sessions', live.userId)).toBe(1);
    expect((await t.me(live)).status).toBe(200);
  });
});

/** jwt.refreshFamilyTtlSeconds (docs/guides/devices.md): two days here, each refresh token lasting one. */
describe.each(ENGINES)('the absolute lifetime of a refresh family on %s', (engine) => {
  let t: DevicesApp;
  beforeAll(async () => {
    t = await createDevicesApp(engine, 'jwt', { jwt: { refreshTokenExpireDays: 1, refreshFamilyTtlSeconds: 2 * 24 * 3600 } });
  });
  afterAll(() => t?.close());

  it('refreshed a minute before its end it works; at its end its access token, its refresh token and its cookie holder are refused', async () => {
    const family = await t.signup('old-family@x.io');
    const other = await t.login('old-family@x.io');
    // Kept alive by refreshes, each within its token's one day.
    for (const hours of [23, 23]) {
      t.clock.advance(hours * HOUR);
      expect((await t.refresh(family)).status).toBe(200);
      expect((await t.refresh(other)).status).toBe(200);
    }
    t.clock.advance(2 * HOUR - MINUTE);
    expect((await t.refresh(family)).status).toBe(200);
    expect((await t.me(family)).status).toBe(200);
    expect(await cookieHolder(t, family)).toBe(family.userId);
    const familyId = await t.idOf(family);
    expect((await t.list(family)).body.map((entry: { id: string }) => entry.id)).toContain(familyId);

    // The end: a one-minute-old access token and a one-minute-old refresh token are refused at once.
    t.clock.advance(MINUTE);
    const refused = await t.me(family);
    expect([refused.status, refused.body.code, refused.headers['www-authenticate']]).toEqual([401, 'UNAUTHENTICATED', 'Bearer']);
    const refresh = await t.refresh(family);
    expect([refresh.status, refresh.body.code]).toEqual([401, 'REFRESH_TOKEN_INVALID']);
    expect(await cookieHolder(t, family)).toBeNull();
    // The other login of the same moment has ended too; a new login starts a new family.
    expect((await t.me(other)).status).toBe(401);
    const fresh = await t.login('old-family@x.io');
    expect((await t.list(fresh)).body).toEqual([expect.objectContaining({ id: await t.idOf(fresh), current: true })]);
  });

  it('the purge deletes a family at its end with its tokens, and an idle one once its tokens are gone', async () => {
    const ended = await t.signup('ended-family@x.io');
    t.clock.advance(23 * HOUR);
    expect((await t.refresh(ended)).status).toBe(200);
    // Both a day before their end; the idle one is never refreshed, so its token expires a day later.
    const live = await t.signup('live-family@x.io');
    const idle = await t.signup('idle-family@x.io');
    t.clock.advance(23 * HOUR);
    expect((await t.refresh(ended)).status).toBe(200);
    expect((await t.refresh(live)).status).toBe(200);
    t.clock.advance(2 * HOUR);

    const purged = await t.app.get(AuthService).purgeExpired();
    expect(purged.refreshFamilies).toBeGreaterThanOrEqual(2);
    // `ended` is past its end; `idle` is not, but its only token has expired and been purged.
    for (const gone of [ended, idle]) {
      expect(await count(t, 'refresh_families', gone.userId)).toBe(0);
      expect(await count(t, 'refresh_tokens', gone.userId)).toBe(0);
    }
    expect(await count(t, 'refresh_families', live.userId)).toBe(1);
    expect((await t.refresh(live)).status).toBe(200);
    expect((await t.me(live)).status).toBe(200);
  });
});

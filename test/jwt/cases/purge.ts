import { AuthService } from '#svc/auth';
import { availableEngines } from '../../support/engines.js';
import { claimsOf, createJwtApp, DAY, type JwtApp, tokensOf } from '../jwt-kit.js';

const ENGINES = await availableEngines();

describe.each(ENGINES)('purgeExpired() of refresh tokens on %s', (engine) => {
  let t: JwtApp;
  beforeEach(async () => {
    t = await createJwtApp({ engine });
  });
  afterEach(() => t.close());

  const purge = async () => (await t.app.get(AuthService).purgeExpired()).refreshTokens;
  const rowsOf = async (access: string) =>
    ((await t.dataSource.query('SELECT * FROM refresh_tokens')) as { id: string; family_id: string; consumed_at: unknown; revoked_at: unknown }[]).filter(
      (row) => row.family_id === claimsOf(access).sid,
    );

  it('deletes expired rows, keeps live ones, and keeps a revocation mark while its family can still be used', async () => {
    // Day 0: four logins.
    const rotated = await t.account('rotated@x.io');
    const loggedOut = await t.account('logged-out@x.io');
    const idle = await t.account('idle@x.io');
    const partly = await t.account('partly@x.io');
    expect((await t.logout({ refresh: loggedOut.refresh })).status).toBe(204);
    // Day 1: two rotations. `partly` then loses only its first row to a revocation, as when a
    // rotation inserts its row while a concurrent reuse revokes the family.
    t.clock.advance(DAY);
    const rotatedNext = tokensOf(await t.refresh(rotated.refresh));
    const partlyNext = tokensOf(await t.refresh(partly.refresh));
    const [partlyFirst] = (await rowsOf(partly.access)).filter((row) => row.consumed_at !== null);
    await t.dataSource.query(`UPDATE refresh_tokens SET revoked_at = created_at WHERE id = '${partlyFirst.id}'`);
    // A revoked row anywhere in the family refuses its other tokens.
    expect((await t.refresh(partlyNext.refresh)).status).toBe(401);
    expect((await t.me(partlyNext.access)).status).toBe(401);

    // Day 6: nothing has expired yet.
    t.clock.advance(5 * DAY);
    expect(await purge()).toBe(0);

    // Day 7 + 1 s: the day-0 rows have expired.
    t.clock.advance(DAY + 1000);
    expect(await purge()).toBe(3);
    expect(await rowsOf(rotated.access)).toHaveLength(1); // the consumed day-0 row went, the live day-1 row stays
    expect(await rowsOf(loggedOut.access)).toHaveLength(0); // revoked and the whole family expired
    expect(await rowsOf(idle.access)).toHaveLength(0); // never used, expired
    expect(await rowsOf(partly.access)).toHaveLength(2); // the revoked mark stays: the day-1 row is still unexpired
    expect((await t.refresh(partlyNext.refresh)).status).toBe(401);
    expect((await t.refresh(rotatedNext.refresh)).status).toBe(200);

    // Day 8 + 1 s: the day-1 rows have expired too (partly's two, and rotated's, consumed on day 7).
    t.clock.advance(DAY);
    expect(await purge()).toBe(3);
    expect(await rowsOf(partly.access)).toHaveLength(0);
    expect(await rowsOf(rotated.access)).toHaveLength(1); // rotated again on day 7: live until day 14
  });
});

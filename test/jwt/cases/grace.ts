import { AuthEvent } from '#svc/auth';
import { availableEngines } from '../../support/engines.js';
import { claimsOf, createJwtApp, type JwtApp, tokensOf } from '../jwt-kit.js';

const ENGINES = await availableEngines();

describe.each(ENGINES)('jwt refreshReuseGraceSeconds on %s', (engine) => {
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine, jwt: { refreshReuseGraceSeconds: 30 } });
  });
  afterAll(() => t.close());

  const familyRows = async (familyId: unknown) =>
    ((await t.dataSource.query('SELECT * FROM refresh_tokens')) as { family_id: string; revoked_at: unknown }[]).filter((row) => row.family_id === familyId);

  it('a token consumed less than 30 s ago gets one more fresh token of its family (two tabs), not a revocation', async () => {
    const account = await t.account('tabs@x.io');
    const familyId = claimsOf(account.access).sid;
    const tabA = tokensOf(await t.refresh(account.refresh));
    t.clock.advance(29_000);
    const tabB = await t.refresh(account.refresh);
    expect(tabB.status).toBe(200);
    const b = tokensOf(tabB);
    expect(claimsOf(b.access).sid).toBe(familyId);
    expect(b.refresh).not.toBe(tabA.refresh);
    // Both tabs go on.
    expect((await t.refresh(tabA.refresh)).status).toBe(200);
    expect((await t.refresh(b.refresh)).status).toBe(200);
    expect((await familyRows(familyId)).every((row) => row.revoked_at === null)).toBe(true);
  });

  it('only once: the third presentation is a reuse and revokes the family', async () => {
    const account = await t.account('thrice@x.io');
    const familyId = claimsOf(account.access).sid;
    const first = tokensOf(await t.refresh(account.refresh));
    expect((await t.refresh(account.refresh)).status).toBe(200);
    await t.events.settled(); // the events of earlier requests first: a late one would be counted as this request's
    const before = t.events.payloadsOf(AuthEvent.TokenReuseDetected).length;
    const third = await t.refresh(account.refresh);
    expect(third.status).toBe(401);
    expect(third.body.code).toBe('REFRESH_TOKEN_INVALID');
    expect((await familyRows(familyId)).every((row) => row.revoked_at !== null)).toBe(true);
    expect((await t.refresh(first.refresh)).status).toBe(401);
    expect((await t.events.waitFor(AuthEvent.TokenReuseDetected, before + 1))[before]).toMatchObject({ userId: account.userId, familyId });
  });

  it('after the grace window a second presentation is a reuse', async () => {
    const account = await t.account('late@x.io');
    const familyId = claimsOf(account.access).sid;
    await t.refresh(account.refresh);
    t.clock.advance(30_000);
    expect((await t.refresh(account.refresh)).status).toBe(401);
    expect((await familyRows(familyId)).every((row) => row.revoked_at !== null)).toBe(true);
  });

  it('a race of 20 with grace: at most the rotation and the one grace token succeed', async () => {
    const account = await t.account('grace-race@x.io');
    const familyId = claimsOf(account.access).sid;
    const responses = await Promise.all(Array.from({ length: 20 }, () => t.refresh(account.refresh)));
    const ok = responses.filter((response) => response.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(2);
    expect(responses.filter((response) => response.status !== 200).every((response) => response.status === 401)).toBe(true);
    expect((await familyRows(familyId)).length).toBeLessThanOrEqual(3);
    // 18 or more presentations of one token: the family is revoked.
    expect((await familyRows(familyId)).every((row) => row.revoked_at !== null)).toBe(true);
  });
});

describe.each(ENGINES)('jwt without grace (default 0) on %s', (engine) => {
  let t: JwtApp;
  beforeAll(async () => {
    t = await createJwtApp({ engine });
  });
  afterAll(() => t.close());

  it('a second presentation one millisecond later is already a reuse', async () => {
    const account = await t.account('strict@x.io');
    await t.refresh(account.refresh);
    t.clock.advance(1);
    expect((await t.refresh(account.refresh)).status).toBe(401);
    expect((await t.me(account.access)).status).toBe(401);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BEHAVIOUR_ENGINES, type Engine, freshDatabase } from '../../support/engines.js';
import { TestClock } from '../../support/test-app.js';
import { claimsOf, createResourceServer, createSigningApp, headerOf, privateKeyFor, type ResourceServer, type SigningApp, tokensOf } from '../signing-kit.js';

/** A database that outlives each restart: a SQLite file, or a PostgreSQL database. */
async function keptDatabase(engine: Engine): Promise<Awaited<ReturnType<typeof freshDatabase>>> {
  if (engine === 'postgres') return freshDatabase('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'svc-signing-'));
  return { options: { type: 'better-sqlite3', database: join(dir, 'rotation.sqlite') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

// Behaviour whatever the engine (the keys are configuration; the database only keeps the refresh
// families across the restarts): SQLite, in a file.
describe.each(BEHAVIOUR_ENGINES)('signing key rotation in three restarts on %s', (engine) => {
  const oldKey = { kid: 'old', privateKey: privateKeyFor('EdDSA') };
  const newKey = { kid: 'new', privateKey: privateKeyFor('EdDSA') };
  const clock = new TestClock();
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let t: SigningApp | undefined;
  let port = 0;
  let resource: ResourceServer;

  async function start(keys: { kid: string; privateKey: string }[]): Promise<SigningApp> {
    await t?.close();
    t = await createSigningApp({ engine, database, clock, port, signing: { algorithm: 'EdDSA', keys } });
    port = t.port;
    return t;
  }

  beforeAll(async () => {
    database = await keptDatabase(engine);
    await start([oldKey]);
    // The second service refetches the key set at every verification (no cache, no cooldown): each step shows at once.
    resource = await createResourceServer({ jwksUrl: `${t!.url}/auth/jwks`, algorithms: ['EdDSA'], jwksCacheSeconds: 0, jwksCooldownSeconds: 0, clock });
  });
  afterAll(async () => {
    await resource?.close();
    await t?.close();
    await database?.drop();
  });

  it('add the new key second, put it first, drop the old: nobody is logged out, and old tokens end with their key', async () => {
    const first = await t!.signup('rotating@x.io');
    expect(headerOf(first.access).kid).toBe('old');

    // 1. The new key is published beside the old, which still signs.
    let app = await start([oldKey, newKey]);
    expect((await request(app.url).get('/auth/jwks')).body.keys.map((key: { kid: string }) => key.kid)).toEqual(['old', 'new']);
    expect((await app.me(first.access)).status).toBe(200);
    expect((await resource.orders(first.access)).status).toBe(200);
    const stepOne = tokensOf(await app.refresh(first.refresh));
    expect(headerOf(stepOne.access).kid).toBe('old');

    // 2. The new key signs; the old one still verifies the tokens it signed; refresh works across.
    app = await start([newKey, oldKey]);
    const refreshed = await app.refresh(stepOne.refresh);
    expect(refreshed.status).toBe(200);
    const stepTwo = tokensOf(refreshed);
    expect(headerOf(stepTwo.access).kid).toBe('new');
    expect(claimsOf(stepTwo.access).sid).toBe(claimsOf(first.access).sid);
    for (const token of [stepOne.access, stepTwo.access]) {
      expect((await app.me(token)).status).toBe(200);
      expect((await resource.orders(token)).status).toBe(200);
    }

    // 3. The old key goes: its tokens are refused, here and at the second service; the session goes on.
    app = await start([newKey]);
    expect((await app.me(stepOne.access)).status).toBe(401);
    expect((await resource.orders(stepOne.access)).status).toBe(401);
    expect((await app.me(stepTwo.access)).status).toBe(200);
    expect((await resource.orders(stepTwo.access)).status).toBe(200);
    const stepThree = await app.refresh(stepTwo.refresh);
    expect(stepThree.status).toBe(200);
    expect(headerOf(tokensOf(stepThree).access).kid).toBe('new');
  });
});

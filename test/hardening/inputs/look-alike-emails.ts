import request from 'supertest';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { availableEngines, freshDatabase, BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ENGINES = await availableEngines();
const PASSWORD = 'correct horse battery';

describe.each(BEHAVIOUR_ENGINES)('look-alike emails at signup (UTS #39) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine });
  });
  afterAll(() => t.close());

  const signup = (email: string) => request(t.server).post('/auth/signup').send({ email, password: PASSWORD });

  it.each([
    ['аlice@x.io', 'a Cyrillic а'],
    ['alıce@x.io', 'a dotless ı'],
    ['ALICE@X.IO', 'capitals'],
    ['ａlice@x.io', 'a fullwidth a'],
  ])('%s (%s) cannot register beside alice@x.io: 409 EMAIL_ALREADY_REGISTERED', async (lookalike) => {
    if ((await t.dataSource.query(`SELECT 1 FROM users WHERE email = 'alice@x.io'`)).length === 0) expect((await signup('alice@x.io')).status).toBe(201);
    const users = (await t.dataSource.query('SELECT id FROM users')).length;
    const refused = await signup(lookalike);
    expect([refused.status, refused.body.code]).toEqual([409, 'EMAIL_ALREADY_REGISTERED']);
    expect((await t.dataSource.query('SELECT id FROM users')).length).toBe(users);
  });

  it('the first of two look-alikes wins, whichever it is: the Cyrillic one first keeps the Latin one out', async () => {
    expect((await signup('сору@x.io')).status).toBe(201);
    const refused = await signup('copy@x.io');
    expect([refused.status, refused.body.code]).toEqual([409, 'EMAIL_ALREADY_REGISTERED']);
  });

  it.each([
    ['mallоry@x.io', 'the local part mixes the Latin and Cyrillic scripts'],
    ['mallory@exаmple.io', 'the domain label "exаmple" mixes the Latin and Cyrillic scripts'],
    ['αlpha-beta@x.io', 'the local part mixes the Greek and Latin scripts'],
  ])('%s mixes scripts in one part: 400 VALIDATION_FAILED, nothing stored', async (email, problem) => {
    const users = (await t.dataSource.query('SELECT id FROM users')).length;
    const refused = await signup(email);
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(refused.body.message).toEqual([`email: ${problem}; use one script in each part of the address`]);
    expect((await t.dataSource.query('SELECT id FROM users')).length).toBe(users);
  });

  it('an address in one script that is not Latin registers, and so do digits and punctuation', async () => {
    for (const email of ['алиса@пример.рф', 'jo.bloggs-2+news@x-y.io']) expect((await signup(email)).status).toBe(201);
  });

  it('stores the skeleton beside the email, never returns it', async () => {
    const response = await signup('skeleton@x.io');
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).not.toContain('emailSkeleton');
    const [row] = await t.dataSource.query(`SELECT email, email_skeleton FROM users WHERE email = 'skeleton@x.io'`);
    expect(row).toEqual({ email: 'skeleton@x.io', email_skeleton: 'skeleton@x.io' });
  });
});

describe.each(ENGINES)('the email skeleton migration on %s, with users already there', (engine) => {
  it('gives existing users their skeleton, the oldest of two look-alikes keeping it; down removes the column', async () => {
    const database = await freshDatabase(engine);
    const dataSource = new DataSource({ ...database.options, entities: authEntities(), migrations: authMigrations } as never);
    await dataSource.initialize();
    try {
      // The schema as it was before the skeleton: every migration, then back down through it.
      await dataSource.runMigrations();
      await undoThrough(dataSource, 'SvcEmailSkeleton1764000000200');
      const insert = (id: string, email: string, at: string) =>
        dataSource.query(engine === 'postgres' ? 'INSERT INTO users (id, email, created_at) VALUES ($1, $2, $3)' : 'INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)', [id, email, at]);
      await insert('00000000-0000-4000-8000-000000000001', 'bob@x.io', '2026-01-01 00:00:00');
      await insert('00000000-0000-4000-8000-000000000002', 'b0b@x.io', '2026-02-01 00:00:00');
      await insert('00000000-0000-4000-8000-000000000003', 'carol@x.io', '2026-03-01 00:00:00');
      await dataSource.runMigrations();
      const rows = await dataSource.query('SELECT email, email_skeleton FROM users ORDER BY email');
      expect(rows).toEqual([
        { email: 'b0b@x.io', email_skeleton: null },
        { email: 'bob@x.io', email_skeleton: 'bob@x.io' },
        { email: 'carol@x.io', email_skeleton: 'carol@x.io' },
      ]);
      await undoThrough(dataSource, 'SvcEmailSkeleton1764000000200');
      const columns = engine === 'postgres' ? await dataSource.query(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'users'`) : await dataSource.query(`PRAGMA table_info(users)`);
      expect(columns.map((column: { name: string }) => column.name)).not.toContain('email_skeleton');
      expect((await dataSource.query('SELECT email FROM users')).length).toBe(3);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});

import request from 'supertest';
import { availableEngines, type Engine } from '../../support/engines.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { cookiesOf, createTestApp, type TestApp, TestClock } from '../../support/test-app.js';

const ENGINES = await availableEngines();

/** A real engine error raised by the database itself, after the user row has been staged. */
const FAIL_SESSION_INSERT = {
  sqlite: [`CREATE TRIGGER fail_session BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'injected failure'); END`],
  postgres: [
    `CREATE FUNCTION fail_session() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
    `CREATE TRIGGER fail_session BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION fail_session()`,
  ],
};

/** Takes the injected failure away again: a PostgreSQL database of the pool whose schema a test left changed is dropped rather than used again. */
const REMOVE_FAILURE: Record<Engine, string[]> = {
  sqlite: [],
  postgres: ['DROP TRIGGER IF EXISTS fail_session ON sessions', 'DROP FUNCTION IF EXISTS fail_session()'],
};

describe.each(ENGINES)('one transaction per request on %s (docs/decisions/0003-transactions.md)', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ engine });
  });
  afterEach(async () => {
    for (const sql of REMOVE_FAILURE[engine]) await t.dataSource.query(sql);
    await t.close();
  });

  it('a database error after the user insert leaves no user row and sets no cookie', async () => {
    for (const sql of FAIL_SESSION_INSERT[engine]) await t.dataSource.query(sql);
    const response = await request(t.server).post('/auth/signup').send({ email: 'a@x.io', password: 'correct horse' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.dataSource.query('SELECT * FROM users')).toHaveLength(0);
    expect(await t.dataSource.query('SELECT * FROM sessions')).toHaveLength(0);
  });

  it('a failed login transaction stores no session and leaves the presented one alone', async () => {
    const cookie = cookiesOf(await request(t.server).post('/auth/signup').send({ email: 'a@x.io', password: 'correct horse' })).svc_session.value;
    for (const sql of FAIL_SESSION_INSERT[engine]) await t.dataSource.query(sql);
    const response = await request(t.server).post('/auth/login').set('Cookie', `svc_session=${cookie}`).send({ email: 'a@x.io', password: 'correct horse' });
    expect(response.status).toBe(500);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.dataSource.query('SELECT * FROM sessions')).toHaveLength(1);
    expect((await request(t.server).get('/auth/me').set('Cookie', `svc_session=${cookie}`)).status).toBe(200);
  });

  it('concurrent signups with one email: exactly one wins, the others get 409', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => request(t.server).post('/auth/signup').send({ email: i % 2 ? 'RACE@x.io' : 'race@x.io', password: 'correct horse' })),
    );
    expect(attempts.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await t.dataSource.query('SELECT * FROM users')).toHaveLength(1);
  });
});

describe('a lost database under load', () => {
  it('is 503 for every request, logged once a minute with the count since the last line', async () => {
    const clock = new TestClock();
    const lines: string[] = [];
    const logger = new CapturingLogger();
    const t = await createTestApp({ engine: 'sqlite', clock, logger });
    try {
      await t.dataSource.destroy();
      for (let i = 0; i < 10; i++) expect((await request(t.server).post('/auth/login').send({ email: 'a@x.io', password: 'correct horse' })).status).toBe(503);
      lines.push(...logger.lines.filter((line) => line.level === 'error').map((line) => line.text));
      expect(lines).toEqual([expect.stringContaining('database unavailable')]);
      clock.advance(60_000);
      expect((await request(t.server).get('/auth/me').set('Cookie', 'svc_session=x')).status).toBe(503);
      const later = logger.lines.filter((line) => line.level === 'error').map((line) => line.text);
      expect(later).toHaveLength(2);
      expect(later[1]).toContain('(10 requests since the last report)');
    } finally {
      await t.app.close();
    }
  });
});

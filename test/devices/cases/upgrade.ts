import { randomBytes, createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { authEntities, authMigrations } from '#svc/auth';
import { SuiteUserColumns1763700000001 } from '../../support/migrations/1763700000001-suite-user-columns.js';
import { SuiteUser } from '../../support/users/suite-user.entity.js';
import { signWithTestSecret } from '../../jwt/jwt-kit.js';
import { availableEngines, type Engine, freshDatabase } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';
import { cookiesOf, createTestApp, TEST_SECRET, type TestApp, TestClock } from '../../support/test-app.js';

const ENGINES = await availableEngines();
const MIGRATION = 'SvcRefreshFamilies1764000000400';
const DAY = 86_400_000;
const NOW = new TestClock().now();

type Database = Awaited<ReturnType<typeof freshDatabase>>;

/** A database both a migrating DataSource and then the application can open: a file for SQLite. */
async function sharedDatabase(engine: Engine): Promise<Database> {
  if (engine === 'postgres') return freshDatabase(engine);
  const file = join(tmpdir(), `svc-upgrade-${randomBytes(6).toString('hex')}.sqlite`);
  return { options: { type: 'better-sqlite3', database: file }, drop: async () => rmSync(file, { force: true }) };
}

/** The schema and the rows as the previous version left them: every migration but the refresh families. */
class PreviousVersion {
  private constructor(
    readonly dataSource: DataSource,
    private readonly engine: Engine,
  ) {}

  static async open(engine: Engine, database: Database): Promise<PreviousVersion> {
    const dataSource = new DataSource({ ...database.options, entities: authEntities(SuiteUser), migrations: [...authMigrations, SuiteUserColumns1763700000001] } as never);
    await dataSource.initialize();
    await dataSource.runMigrations();
    await undoThrough(dataSource, MIGRATION);
    return new PreviousVersion(dataSource, engine);
  }

  /** A time `days` from the test clock's now, as the engine stores it (TypeORM's UTC text on SQLite). */
  at(days: number): string | Date {
    const time = new Date(NOW.getTime() + days * DAY);
    return this.engine === 'postgres' ? time : time.toISOString().replace('T', ' ').replace('Z', '');
  }

  async insert(table: string, row: Record<string, unknown>): Promise<void> {
    const columns = Object.keys(row);
    const placeholders = columns.map((_, i) => (this.engine === 'postgres' ? `$${i + 1}` : '?'));
    await this.dataSource.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})`, Object.values(row));
  }

  async user(email: string): Promise<string> {
    const id = randomUUID();
    await this.insert('users', { id, email, email_skeleton: email, password_hash: null, created_at: this.at(-50) });
    return id;
  }

  /** A refresh token row; returns the raw token a cookie would hold. */
  async refreshToken(row: { userId: string; familyId: string; createdDays: number; consumed?: boolean; revoked?: boolean }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.insert('refresh_tokens', {
      id: randomUUID(),
      token_hash: sha256(token),
      family_id: row.familyId,
      user_id: row.userId,
      expires_at: this.at(row.createdDays + 7),
      consumed_at: row.consumed ? this.at(row.createdDays + 0.5) : null,
      revoked_at: row.revoked ? this.at(row.createdDays + 0.5) : null,
      created_at: this.at(row.createdDays),
    });
    return token;
  }

  /** A session row; returns the raw token its cookie holds. */
  async session(userId: string, ip: string | null): Promise<{ id: string; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    await this.insert('sessions', {
      id,
      token_hash: sha256(token),
      user_id: userId,
      expires_at: this.at(6),
      created_at: this.at(-1),
      last_seen_at: this.at(-0.5),
      ip,
      user_agent: 'Old Browser/1.0',
    });
    return { id, token };
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const time = (value: unknown) => new Date(typeof value === 'string' && !value.includes('T') ? `${value.replace(' ', 'T')}Z` : (value as string | Date)).getTime();

/** What an access token minted before the upgrade looks like: the same claims, the same key. */
function accessTokenOf(userId: string, familyId: string): string {
  const iat = Math.floor(NOW.getTime() / 1000) - 60;
  return signWithTestSecret({ sub: userId, sid: familyId, jti: randomUUID(), typ: 'access', iat, exp: iat + 600 });
}

/**
 * Migration 1764000000400 on a database the previous version used: every family of `refresh_tokens`
 * gets its row, so existing logins keep working; session addresses are cut to their network; `down`
 * restores the previous schema.
 */
describe.each(ENGINES)('upgrading to refresh families on %s', (engine) => {
  describe('the jwt credential', () => {
    let t: TestApp;
    const families = { live: randomUUID(), revoked: randomUUID(), old: randomUUID() };
    let userId: string;
    let tokens: Record<keyof typeof families, string>;

    beforeAll(async () => {
      const database = await sharedDatabase(engine);
      const previous = await PreviousVersion.open(engine, database);
      userId = await previous.user('existing@x.io');
      // Each family's first token; then the token each client holds now.
      await previous.refreshToken({ userId, familyId: families.live, createdDays: -2, consumed: true });
      // Reuse detected before the upgrade: one revoked row marks the whole family.
      await previous.refreshToken({ userId, familyId: families.revoked, createdDays: -3, revoked: true });
      // A family that began 40 days ago, refreshed ever since: past the default 30-day lifetime.
      await previous.refreshToken({ userId, familyId: families.old, createdDays: -40, consumed: true });
      tokens = {
        live: await previous.refreshToken({ userId, familyId: families.live, createdDays: -1 }),
        revoked: await previous.refreshToken({ userId, familyId: families.revoked, createdDays: -2 }),
        old: await previous.refreshToken({ userId, familyId: families.old, createdDays: -1 }),
      };
      await previous.dataSource.runMigrations();
      await previous.dataSource.destroy();
      t = await createTestApp({ engine, strategy: 'jwt', database, options: { jwt: { secretKey: TEST_SECRET } } });
    });
    afterAll(() => t?.close());

    it('gives every existing family its row: created at its first token, last used at its last, ending 30 days after it began, revoked if a token was', async () => {
      const rows: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM refresh_families ORDER BY created_at');
      const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
      expect(Object.keys(byId).sort()).toEqual(Object.values(families).sort());
      for (const row of rows) expect(row).toMatchObject({ user_id: userId, user_agent: null, ip: null });
      const live = byId[families.live];
      expect([time(live.created_at), time(live.last_used_at), time(live.expires_at)]).toEqual([NOW.getTime() - 2 * DAY, NOW.getTime() - DAY, NOW.getTime() + 28 * DAY]);
      expect(live.revoked_at).toBeNull();
      expect(time(byId[families.revoked].revoked_at)).toBe(NOW.getTime() - 2.5 * DAY);
      expect(time(byId[families.old].expires_at)).toBe(NOW.getTime() - 10 * DAY);
    });

    it('keeps an access token and a refresh cookie issued before the upgrade working, and lists that login', async () => {
      const access = accessTokenOf(userId, families.live);
      const me = await request(t.server).get('/auth/me').set('Authorization', `Bearer ${access}`);
      expect([me.status, me.body.email]).toEqual([200, 'existing@x.io']);
      const listed = await request(t.server).get('/auth/sessions').set('Authorization', `Bearer ${access}`);
      expect(listed.body).toEqual([{ id: families.live, createdAt: new Date(NOW.getTime() - 2 * DAY).toISOString(), lastUsedAt: new Date(NOW.getTime() - DAY).toISOString(), userAgent: null, current: true }]);

      const refreshed = await request(t.server).post('/auth/refresh').set('Cookie', `svc_refresh=${tokens.live}`);
      expect(refreshed.status).toBe(200);
      const next = refreshed.body.access_token as string;
      expect((await request(t.server).get('/auth/me').set('Authorization', `Bearer ${next}`)).status).toBe(200);
      expect(cookiesOf(refreshed).svc_refresh.value).not.toBe(tokens.live);
    });

    it('keeps refusing a family revoked before the upgrade, and refuses one past its absolute lifetime', async () => {
      for (const family of ['revoked', 'old'] as const) {
        expect((await request(t.server).get('/auth/me').set('Authorization', `Bearer ${accessTokenOf(userId, families[family])}`)).status).toBe(401);
        expect((await request(t.server).post('/auth/refresh').set('Cookie', `svc_refresh=${tokens[family]}`)).status).toBe(401);
      }
    });
  });

  describe('the session credential', () => {
    let t: TestApp;
    let sessions: Record<'v4' | 'v6' | 'none', { id: string; token: string }>;

    beforeAll(async () => {
      const database = await sharedDatabase(engine);
      const previous = await PreviousVersion.open(engine, database);
      const userId = await previous.user('member@x.io');
      sessions = {
        v4: await previous.session(userId, '203.0.113.77'),
        v6: await previous.session(userId, '2001:db8:85a3:8d3:1319:8a2e:370:7348'),
        none: await previous.session(userId, null),
      };
      await previous.dataSource.runMigrations();
      await previous.dataSource.destroy();
      t = await createTestApp({ engine, database });
    });
    afterAll(() => t?.close());

    it('cuts the stored addresses to their network and keeps the sessions working', async () => {
      const rows: { id: string; ip: string | null }[] = await t.dataSource.query('SELECT id, ip FROM sessions');
      expect(Object.fromEntries(rows.map((row) => [row.id, row.ip]))).toEqual({ [sessions.v4.id]: '203.0.113.0', [sessions.v6.id]: '2001:db8:85a3::', [sessions.none.id]: null });
      const cookie = `svc_session=${sessions.v4.token}`;
      expect((await request(t.server).get('/auth/me').set('Cookie', cookie)).body.email).toBe('member@x.io');
      const listed = await request(t.server).get('/auth/sessions').set('Cookie', cookie);
      expect(listed.body).toHaveLength(3);
      expect(listed.body.filter((entry: { current: boolean }) => entry.current)).toEqual([expect.objectContaining({ id: sessions.v4.id, userAgent: 'Old Browser/1.0' })]);
    });
  });

  it('down restores the previous schema and keeps the refresh tokens; up again rebuilds the families', async () => {
    const database = await sharedDatabase(engine);
    const previous = await PreviousVersion.open(engine, database);
    try {
      const userId = await previous.user('down@x.io');
      const familyId = randomUUID();
      await previous.refreshToken({ userId, familyId, createdDays: -1 });
      await previous.dataSource.runMigrations();
      await undoThrough(previous.dataSource, MIGRATION);
      const tables = engine === 'postgres'
        ? await previous.dataSource.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)
        : await previous.dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table'`);
      expect(tables.map((table: { name: string }) => table.name)).not.toContain('refresh_families');
      const indexes = engine === 'postgres'
        ? await previous.dataSource.query(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'refresh_tokens'`)
        : await previous.dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refresh_tokens'`);
      expect(indexes.map((index: { name: string }) => index.name)).not.toContain('ix_refresh_tokens_revoked_family');
      expect(await previous.dataSource.query('SELECT family_id FROM refresh_tokens')).toEqual([{ family_id: familyId }]);
      await previous.dataSource.runMigrations();
      expect(await previous.dataSource.query('SELECT id FROM refresh_families')).toEqual([{ id: familyId }]);
    } finally {
      await previous.dataSource.destroy();
      await database.drop();
    }
  });
});

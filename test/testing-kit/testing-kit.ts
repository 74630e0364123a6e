import { afterEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, Injectable, type LoggerService, Post, UseGuards } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import bcrypt from 'bcrypt';
import request from 'supertest';
import { Column, DataSource, type DataSourceOptions, Entity, PrimaryGeneratedColumn, type Repository } from 'typeorm';
import { AuthConfigError, AuthEvent, type AuthHooks, authMigrations, CurrentUser, CurrentUserGuard, HookAbort, OnAuthEvent, type PasswordResetRequestedEvent, type SignupAfterEvent, type SignupPayload, type UserBody } from '#svc/auth';
import { type AuthTestApp, createAuthTestApp, LowCostPasswordHasher, lowCostOf, PasswordHasher } from '#svc/auth/testing';
import { canUsePostgres, freshDatabase } from '../support/engines.js';
import { SuiteUser } from '../support/users/suite-user.entity.js';
import { SuiteUserColumns1763700000001 } from '../support/migrations/1763700000001-suite-user-columns.js';

@Controller('projects')
class ProjectsController {
  @Get()
  @UseGuards(CurrentUserGuard)
  list(@CurrentUser() user: UserBody) {
    return { owner: user.email, plan: user.plan };
  }
}

/** An application's own entity, as a newcomer's notes API has one. */
@Entity('notes')
class Note {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 36 })
  ownerId: string;

  @Column({ type: 'varchar', length: 200 })
  text: string;
}

@Controller('notes')
@UseGuards(CurrentUserGuard)
class NotesController {
  constructor(@InjectRepository(Note) private readonly notes: Repository<Note>) {}

  @Get()
  async list(@CurrentUser() user: UserBody) {
    return (await this.notes.findBy({ ownerId: user.id })).map((note) => note.text);
  }

  @Post()
  async add(@CurrentUser() user: UserBody, @Body() body: { text: string }) {
    await this.notes.save(this.notes.create({ ownerId: user.id, text: body.text }));
  }

  @Get('broken')
  broken(): never {
    throw new Error('the notes index is missing');
  }
}

/** The application's own view of its users, through the user entity's repository. */
@Controller('plans')
class PlansController {
  constructor(@InjectRepository(SuiteUser) private readonly users: Repository<SuiteUser>) {}

  @Get()
  async list(): Promise<string[]> {
    return (await this.users.find({ order: { email: 'ASC' } })).map((user) => `${user.email}: ${user.plan}`);
  }
}

/** The application's mailer of the email links, beside `ResetMailer`. */
@Injectable()
class EmailLinkMailer {
  @OnAuthEvent(AuthEvent.EmailVerificationRequested)
  verification(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeRequested)
  confirmation(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeNotice)
  notice(): void {}
}

/** A logger the test reads. */
class CollectingLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown, stack?: unknown): void {
    this.errors.push(`${String(message)} ${String(stack ?? '')}`);
  }
}

@Injectable()
class InviteOnly implements AuthHooks {
  beforeSignup(payload: SignupPayload): SignupPayload {
    if (!payload.email.endsWith('@example.com')) throw new HookAbort('Invitation only');
    return payload;
  }
}

@Injectable()
class WelcomeMailer {
  readonly welcomed: string[] = [];

  @OnAuthEvent(AuthEvent.SignupAfter)
  welcome(event: SignupAfterEvent): void {
    this.welcomed.push(event.user.email);
  }
}

/** The application's mailer of reset links: svc/testing, like the module, does not start without one. */
@Injectable()
class ResetMailer {
  readonly sent: string[] = [];

  @OnAuthEvent(AuthEvent.PasswordResetRequested)
  send(event: PasswordResetRequestedEvent): void {
    this.sent.push(event.link);
  }
}

/** svc/testing, as an application's tests use it: the common cases in a few lines each. */
describe('svc/testing', () => {
  let t: AuthTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a guarded route: signIn gives the headers of a signed-in user, no password round trip', async () => {
    t = await createAuthTestApp({ user: SuiteUser, migrations: [SuiteUserColumns1763700000001], controllers: [ProjectsController], providers: [ResetMailer] });
    const { user, headers } = await t.signIn('ada@example.com', { columns: { plan: 'pro' } });
    expect(user).toEqual({ id: expect.any(String), email: 'ada@example.com', displayName: null, plan: 'pro' });
    expect((await request(t.server).get('/projects').set(headers)).body).toEqual({ owner: 'ada@example.com', plan: 'pro' });
    expect((await request(t.server).get('/projects')).status).toBe(401);
  });

  it('the same on the jwt strategy: a bearer header', async () => {
    t = await createAuthTestApp({ strategy: 'jwt', controllers: [ProjectsController], providers: [ResetMailer] });
    const { headers } = await t.signIn('jwt@example.com');
    expect(headers.Authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await request(t.server).get('/projects').set(headers)).body.owner).toBe('jwt@example.com');
    // The clock is the test's: the access token (10 minutes) expires when the test says so.
    t.clock.advance(11 * 60_000);
    expect((await request(t.server).get('/projects').set(headers)).status).toBe(401);
  });

  it("the application's own entities: a controller backed by its repository (synchronize, no migration needed)", async () => {
    t = await createAuthTestApp({ credential: 'jwt', entities: [Note], synchronize: true, controllers: [NotesController], providers: [ResetMailer] });
    const ada = await t.signIn('ada@example.com');
    const bob = await t.signIn('bob@example.com');
    expect(ada.headers.Authorization).toMatch(/^Bearer /);
    expect((await request(t.server).post('/notes').set(ada.headers).send({ text: 'buy milk' })).status).toBe(201);
    expect((await request(t.server).get('/notes').set(ada.headers)).body).toEqual(['buy milk']);
    expect((await request(t.server).get('/notes').set(bob.headers)).body).toEqual([]);
  });

  it("silent by default; with a logger, a 500's cause is logged", async () => {
    const logger = new CollectingLogger();
    t = await createAuthTestApp({ entities: [Note], synchronize: true, controllers: [NotesController], providers: [ResetMailer], logger });
    const { headers } = await t.signIn('ada@example.com');
    expect((await request(t.server).get('/notes/broken').set(headers)).status).toBe(500);
    expect(logger.errors.join('\n')).toContain('the notes index is missing');
  });

  it('a hook: it refuses what the application refuses', async () => {
    t = await createAuthTestApp({ hooks: InviteOnly, providers: [ResetMailer] });
    const refused = await request(t.server).post('/auth/signup').send({ email: 'eve@elsewhere.io', password: 'correct horse' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'HOOK_ABORTED', message: 'Invitation only' });
    expect((await request(t.server).post('/auth/signup').send({ email: 'bob@example.com', password: 'correct horse' })).status).toBe(201);
  });

  it('an observer, the recorded events and the reset mails', async () => {
    t = await createAuthTestApp({ providers: [WelcomeMailer, ResetMailer] });
    await request(t.server).post('/auth/signup').send({ email: 'carol@example.com', password: 'correct horse' });
    await request(t.server).post('/auth/forgot-password').send({ email: 'carol@example.com' });
    await t.events.settled();
    expect(t.app.get(WelcomeMailer).welcomed).toEqual(['carol@example.com']);
    expect(t.events.payloadsOf(AuthEvent.SignupAfter)).toEqual([{ user: expect.objectContaining({ email: 'carol@example.com' }) }]);
    const [mail] = t.events.resetMails('carol@example.com');
    expect(mail).toEqual({ to: 'carol@example.com', token: expect.any(String), expiresAt: new Date(t.clock.now().getTime() + 60 * 60_000) });
    expect((await request(t.server).post('/auth/reset-password').send({ token: mail.token, password: 'battery staple' })).status).toBe(204);
    // Nothing more is on its way: settled() waits for what was scheduled, so this can fail.
    await t.events.settled();
    expect(t.events.payloadsOf(AuthEvent.LoginFailure)).toEqual([]);
  });

  it('passwords are hashed at the low cost (configured cost minus 6) unless the test asks for the configured one; the module itself still refuses a cost under 10', async () => {
    const storedHash = async (app: AuthTestApp) => {
      expect((await request(app.server).post('/auth/signup').send({ email: 'dan@example.com', password: 'correct horse' })).status).toBe(201);
      expect((await request(app.server).post('/auth/login').send({ email: 'dan@example.com', password: 'correct horse' })).status).toBe(200);
      const [row]: { password_hash: string }[] = await app.app.get(DataSource).query(`SELECT password_hash FROM users`);
      return row.password_hash;
    };
    t = await createAuthTestApp({ options: { password: { bcryptCost: 11 } }, providers: [ResetMailer] });
    expect(bcrypt.getRounds(await storedHash(t))).toBe(lowCostOf(11));
    expect(lowCostOf(11)).toBe(5);
    await t.close();
    t = await createAuthTestApp({ passwordHasher: 'configured', providers: [ResetMailer] });
    expect(bcrypt.getRounds(await storedHash(t))).toBe(10);
    await t.close();
    t = undefined;
    await expect(createAuthTestApp({ options: { password: { bcryptCost: lowCostOf(10) } } })).rejects.toThrow(new AuthConfigError('password.bcryptCost', 'must be between 10 and 15', 4));
  });

  it("reset() makes a shared app new for the next test: the library's and the application's tables emptied, no events, the clock back", async () => {
    t = await createAuthTestApp({ entities: [Note], synchronize: true, controllers: [NotesController], providers: [ResetMailer] });
    const start = t.clock.now();
    const { headers } = await t.signIn('ada@example.com');
    await request(t.server).post('/notes').set(headers).send({ text: 'buy milk' });
    await request(t.server).post('/auth/login').send({ email: 'ada@example.com', password: 'wrong password' });
    t.clock.advance(60_000);
    await t.reset();
    expect(await t.dataSource.query('SELECT * FROM notes')).toEqual([]);
    expect(await t.dataSource.query('SELECT * FROM users')).toEqual([]);
    expect(await t.dataSource.query('SELECT * FROM sessions')).toEqual([]);
    expect(t.events.received).toEqual([]);
    expect(t.clock.now()).toEqual(start);
    expect((await request(t.server).get('/notes').set(headers)).status).toBe(401);
  });

  it('waitFor() resolves once an event has been delivered so many times, and fails after its time when it is not', async () => {
    t = await createAuthTestApp({ providers: [ResetMailer] });
    const delivered = t.events.waitFor(AuthEvent.SignupAfter, 2);
    for (const email of ['one@example.com', 'two@example.com']) await request(t.server).post('/auth/signup').send({ email, password: 'correct horse' });
    expect((await delivered).map((event) => event.user.email)).toEqual(['one@example.com', 'two@example.com']);
    await expect(t.events.waitFor(AuthEvent.LogoutAfter, 1, 50)).rejects.toThrow('event svc.logout.after not delivered 1 time(s) within 50 ms');
  });

  it('overrides replace a provider for the test; configure() sees the application before it starts', async () => {
    class CountingHasher extends LowCostPasswordHasher {
      static hashed = 0;
      override hash(password: string): Promise<string> {
        CountingHasher.hashed += 1;
        return super.hash(password);
      }
    }
    t = await createAuthTestApp({
      controllers: [ProjectsController],
      providers: [ResetMailer],
      overrides: [{ provide: PasswordHasher, useClass: CountingHasher }],
      configure: (app) => app.setGlobalPrefix('api', { exclude: ['auth/{*path}'] }),
    });
    const signup = await request(t.server).post('/auth/signup').send({ email: 'eve@example.com', password: 'correct horse' });
    expect(signup.status).toBe(201);
    expect(CountingHasher.hashed).toBe(1);
    const cookie = signup.headers['set-cookie'] as unknown as string[];
    expect((await request(t.server).get('/api/projects').set('Cookie', cookie)).body.owner).toBe('eve@example.com');
    expect((await request(t.server).get('/projects').set('Cookie', cookie)).status).toBe(404);
  });

  it("does not start without the application's mailer, as the module does not: the recorder is no mailer; the module's own options say none is sent", async () => {
    await expect(createAuthTestApp()).rejects.toThrow(
      new AuthConfigError(
        'password.sendsResetMail',
        'is true, but nothing observes svc.password.reset_requested: add an observer that mails the reset link (@OnAuthEvent(AuthEvent.PasswordResetRequested)), or set password.sendsResetMail: false if the application sends no such mail',
      ),
    );
    await expect(createAuthTestApp({ providers: [ResetMailer], options: { emailVerification: {} } })).rejects.toThrow(
      new AuthConfigError(
        'emailVerification.sendsMail',
        'is true, but nothing observes svc.email.verification_requested: add an observer that mails the verification link (@OnAuthEvent(AuthEvent.EmailVerificationRequested)), or set emailVerification.sendsMail: false if the application sends no such mail',
      ),
    );
    t = await createAuthTestApp({ options: { password: { sendsResetMail: false }, emailVerification: { sendsMail: false } } });
    // The password section is merged over the kit's cost: still 10, hashed at lowCostOf(10).
    expect((await request(t.server).post('/auth/signup').send({ email: 'quiet@example.com', password: 'correct horse' })).status).toBe(201);
    const [row]: { password_hash: string }[] = await t.dataSource.query(`SELECT password_hash FROM users`);
    expect(bcrypt.getRounds(row.password_hash)).toBe(lowCostOf(10));
  });

  it('the reset mail carries its link: <baseUrl><password.resetPath>?token=', async () => {
    t = await createAuthTestApp({ providers: [ResetMailer], options: { baseUrl: 'https://notes.example', password: { resetPath: '/account/new-password' } } });
    await request(t.server).post('/auth/signup').send({ email: 'carol@example.com', password: 'correct horse' });
    await request(t.server).post('/auth/forgot-password').send({ email: 'carol@example.com' });
    await t.events.settled();
    const [mail] = t.events.resetMails('carol@example.com');
    expect(t.app.get(ResetMailer).sent).toEqual([`https://notes.example/account/new-password?token=${mail.token}`]);
    await expect(createAuthTestApp({ providers: [ResetMailer], options: { password: { resetPath: 'https://evil.example/reset' } } })).rejects.toThrow(
      new AuthConfigError('password.resetPath', 'must be a path starting with a single "/", without query, fragment, spaces or backslashes', 'https://evil.example/reset'),
    );
  });

  it("the user entity's repository is injectable without listing the entity in `entities`", async () => {
    t = await createAuthTestApp({ user: SuiteUser, migrations: [SuiteUserColumns1763700000001], controllers: [PlansController], providers: [ResetMailer] });
    await t.signIn('bob@example.com');
    await t.signIn('ada@example.com', { columns: { plan: 'pro' } });
    expect((await request(t.server).get('/plans')).body).toEqual(['ada@example.com: pro', 'bob@example.com: free']);
  });

  it('signIn(email, { verified: true }) gives a user whose email is verified; without it, a new user is unverified', async () => {
    t = await createAuthTestApp({ providers: [ResetMailer, EmailLinkMailer], options: { emailVerification: {} } });
    const start = t.clock.now();
    expect((await t.signIn('ada@example.com', { verified: true })).user).toMatchObject({ email: 'ada@example.com', emailVerified: true });
    expect((await t.signIn('bob@example.com')).user).toMatchObject({ email: 'bob@example.com', emailVerified: false });
    // An existing user is verified too, at the app's clock.
    t.clock.advance(60_000);
    expect((await t.signIn('bob@example.com', { verified: true })).user.emailVerified).toBe(true);
    const rows: { email: string; email_verified_at: string | Date }[] = await t.dataSource.query(`SELECT email, email_verified_at FROM users ORDER BY email`);
    expect(rows.map((row) => [row.email, new Date(row.email_verified_at).getTime()])).toEqual([
      ['ada@example.com', start.getTime()],
      ['bob@example.com', start.getTime() + 60_000],
    ]);
  });

  it('each app gets a new in-memory SQLite database, migrated already (a copy of one migrated once per process): apps share no row', async () => {
    const suiteApp = () => createAuthTestApp({ user: SuiteUser, migrations: [SuiteUserColumns1763700000001], controllers: [PlansController], providers: [ResetMailer] });
    const migrationsRun = async (app: AuthTestApp) => ((await app.dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map(({ name }) => name).sort();
    let first: AuthTestApp | undefined = await suiteApp();
    try {
      t = await suiteApp();
      const expected = [...authMigrations, SuiteUserColumns1763700000001].map((migration) => migration.name).sort();
      expect(await migrationsRun(first)).toEqual(expected);
      expect(await migrationsRun(t)).toEqual(expected);
      await first.signIn('first@example.com');
      await t.signIn('second@example.com');
      expect((await request(first.server).get('/plans')).body).toEqual(['first@example.com: free']);
      expect((await request(t.server).get('/plans')).body).toEqual(['second@example.com: free']);
      await first.close();
      first = undefined;
      // A later copy starts as empty as the first, whatever the apps before it wrote.
      await t.close();
      t = await suiteApp();
      expect((await request(t.server).get('/plans')).body).toEqual([]);
      // Other migrations, another database: the library's alone, without the application's column.
      await t.close();
      t = await createAuthTestApp({ providers: [ResetMailer] });
      expect(await migrationsRun(t)).toEqual(authMigrations.map((migration) => migration.name).sort());
      expect(await t.dataSource.query(`SELECT name FROM pragma_table_info('users') WHERE name = 'plan'`)).toEqual([]);
    } finally {
      await first?.close();
    }
  });

  it("PostgreSQL from { type: 'postgres', url }, type-checked without a cast", async () => {
    if (!(await canUsePostgres())) return; // said loudly by canUsePostgres; REQUIRE_POSTGRES=1 makes it a failure
    const database = await freshDatabase('postgres');
    const { url } = database.options as Extract<DataSourceOptions, { type: 'postgres' }>; // the test server's new database
    try {
      t = await createAuthTestApp({
        user: SuiteUser,
        database: { type: 'postgres', url },
        migrations: [SuiteUserColumns1763700000001],
        controllers: [PlansController],
        providers: [ResetMailer],
      });
      await t.signIn('pg@example.com');
      expect((await request(t.server).get('/plans')).body).toEqual(['pg@example.com: free']);
      await t.close();
      t = undefined;
    } finally {
      await database.drop();
    }
  });

  it('your PostgreSQL test database instead of SQLite: the library migrates it', async () => {
    if (!(await canUsePostgres())) return; // said loudly by canUsePostgres; REQUIRE_POSTGRES=1 makes it a failure
    const database = await freshDatabase('postgres');
    try {
      t = await createAuthTestApp({ database: database.options, controllers: [ProjectsController], providers: [ResetMailer] });
      const { headers } = await t.signIn('pg@example.com');
      expect((await request(t.server).get('/projects').set(headers)).body.owner).toBe('pg@example.com');
      expect(await t.dataSource.query(`SELECT email FROM users`)).toEqual([{ email: 'pg@example.com' }]);
      await t.close();
      t = undefined;
    } finally {
      await database.drop();
    }
  });
});

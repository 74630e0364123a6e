import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { canUsePostgres, freshDatabase } from '../support/engines.js';
import { reserveLoopbackPort } from '../support/listen.js';
import { readmeFiles } from './support/readme-files.js';
import { copySqliteAddon, REPO, sh, writeScratchApp } from './support/scratch-app.js';

const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
/** The pages that hold the example application's files: the README and the two guides it links to. */
const README = ['README.md', 'docs/guides/application.md', 'docs/guides/testing.md'].map((page) => readFileSync(join(REPO, page), 'utf8')).join('\n');
const EXAMPLE_FILES = [
  'tsconfig.json',
  'src/app-user.entity.ts',
  'src/migrations/1795824000000-app-user-columns.ts',
  'src/project.entity.ts',
  'src/migrations/1795824060000-projects-table.ts',
  'src/data-source.ts',
  'src/app.module.ts',
  'src/main.ts',
  'src/projects.controller.ts',
  'src/app.hooks.ts',
  'src/app.mailer.ts',
  'src/security-alerts.ts',
  'src/health.controller.ts',
  'test/projects.test.ts',
];

/**
 * svc as a Nest user gets it: `npm run pack`, the tarball installed with npm into an empty
 * directory beside the README's peers, the README's example application compiled against it, its
 * own node:test suite run through svc/testing, and the application started and driven over HTTP.
 */
describe('the packed svc package in an application written from the README', () => {
  let tarball: string;
  let app: string;
  let server: ChildProcess | undefined;
  const output: string[] = [];
  /**
   * The stages after the install, started by beforeAll for the tests to await: the compile, then side
   * by side the application's own tests, the TypeORM CLI's migrations and the application serving
   * (its own port and SQLite file each). A stage that fails fails the test awaiting it.
   */
  let compiled: Promise<void>;
  let ownTests: Promise<string | undefined>;
  let migrations: Promise<{ ran: string; shown: string }>;
  let serving: Promise<string>;

  beforeAll(async () => {
    tarball = (await sh(process.execPath, [join(REPO, 'scripts/pack.mjs')], { cwd: REPO })).trim().split('\n').at(-1)!;
    app = mkdtempSync(join(tmpdir(), 'svc-scratch-'));
    writeScratchApp(app, tarball, readmeFiles(README));
    await sh('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app });
    copySqliteAddon(app);
    compiled = sh(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app }).then(() => undefined);
    ownTests = compiled.then(runOwnTests);
    migrations = compiled.then(migrate);
    serving = compiled.then(startServer);
    // Awaited by their tests; until then a failure is not an unhandled rejection.
    for (const stage of [compiled, ownTests, migrations, serving]) stage.catch(() => undefined);
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled([ownTests, migrations, serving]);
    // 'close', not 'exit': the server's pipes are closed too, so nothing of it outlives the suite.
    if (server && !(server.stdout!.closed && server.stderr!.closed)) {
      const closed = new Promise((resolve) => server!.once('close', resolve));
      if (server.exitCode === null) server.kill('SIGTERM');
      await closed;
    }
    if (app) rmSync(app, { recursive: true, force: true });
  });

  /** The example's node:test suite on a new PostgreSQL database: its TAP report, or undefined without PostgreSQL. */
  async function runOwnTests(): Promise<string | undefined> {
    if (!(await canUsePostgres())) return undefined; // said loudly by canUsePostgres; REQUIRE_POSTGRES=1 makes it a failure
    const database = await freshDatabase('postgres');
    try {
      const { url } = database.options as Extract<DataSourceOptions, { type: 'postgres' }>;
      return await sh(process.execPath, ['--test', '--test-reporter=tap', 'dist/test/projects.test.js'], { cwd: app, env: { TEST_DATABASE_URL: url } });
    } finally {
      await database.drop();
    }
  }

  /** `migration:run`, then `migration:show`, with the README's DataSource file on a new SQLite file. */
  async function migrate(): Promise<{ ran: string; shown: string }> {
    const typeorm = join(app, 'node_modules/typeorm/cli.js');
    const env = { ...process.env, DATABASE_FILE: join(app, 'cli.sqlite') };
    const ran = await sh(process.execPath, [typeorm, 'migration:run', '-d', 'dist/src/data-source.js'], { cwd: app, env });
    const shown = await sh(process.execPath, [typeorm, 'migration:show', '-d', 'dist/src/data-source.js'], { cwd: app, env });
    return { ran, shown };
  }

  /** Starts the example application on a port of its own; its base URL once it answers. */
  async function startServer(): Promise<string> {
    const port = await reserveLoopbackPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        PORT: String(port),
        BASE_URL: baseUrl,
        DATABASE_FILE: join(app, 'projects.sqlite'),
        AUTH_SECRET: 'mX4vQ8zR2nL7wK1bT9cJ5hF3yG6dPa0s',
        GOOGLE_CLIENT_ID: 'projects.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'GOCSPX-q8Vz3kR1xN7pL2mW9tY4bH6c',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await waitUntilServing(`${baseUrl}/health`, server, output);
    return baseUrl;
  }

  it('holds the compiled library with its declarations, README and LICENSE, and nothing else', async () => {
    const entries = (await sh('tar', ['-tzf', tarball], { cwd: REPO })).trim().split('\n');
    expect(entries.filter((entry) => !/^package\/(dist\/.+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(entry))).toEqual([]);
    expect(entries.filter((entry) => /\.spec[.-]|\/test\/|\/apps\/|\/bench\//.test(entry))).toEqual([]);
    for (const entry of ['index', 'testing/index', 'health/index', 'openapi/index', 'passport/index', 'client/index']) {
      expect(entries).toEqual(expect.arrayContaining([`package/dist/${entry}.js`, `package/dist/${entry}.d.ts`]));
    }
  });

  it('the README names every file of its example application', () => {
    expect([...readmeFiles(README).keys()].sort()).toEqual([...EXAMPLE_FILES].sort());
  });

  it("compiles against the package's declarations, and its own tests pass through svc/testing on PostgreSQL (its Project entity's repository included)", async () => {
    await compiled;
    const report = await ownTests;
    if (report === undefined) return; // no PostgreSQL: said loudly by canUsePostgres; REQUIRE_POSTGRES=1 makes it a failure
    expect(report).toMatch(/^# pass 3$/m);
    expect(report).toMatch(/^# fail 0$/m);
  }, 120_000);

  it("migrates a new database with the TypeORM CLI and the README's DataSource file", async () => {
    const { ran, shown } = await migrations;
    expect(ran).toContain('AppUserColumns1795824000000');
    expect(ran).toContain('ProjectsTable1795824060000');
    // The example's migration is dated as migration:create dates one: after every svc migration, and svc's columns of users stay.
    expect(ran.indexOf('AppUserColumns1795824000000')).toBeGreaterThan(ran.indexOf('SvcPasskeys1764000000600'));
    const migrated = new Database(join(app, 'cli.sqlite'), { readonly: true });
    try {
      const columns = migrated.prepare(`SELECT name FROM pragma_table_info('users')`).all() as { name: string }[];
      expect(columns.map(({ name }) => name)).toEqual(expect.arrayContaining(['email_skeleton', 'email_verified_at', 'mfa_totp_enabled', 'display_name', 'plan']));
    } finally {
      migrated.close();
    }
    expect(shown).not.toMatch(/\[ \]/);
    expect(shown).toMatch(/\[X\].*AppUserColumns1795824000000/);
  }, 60_000);

  it('runs: signup, /auth/me, the guarded routes, the hook, the observer, health and OpenAPI', async () => {
    const baseUrl = await serving;
    const json = { 'Content-Type': 'application/json', Origin: baseUrl };
    const signup = await fetch(`${baseUrl}/auth/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'Ada@Example.com', password: 'correct horse battery', displayName: 'Ada' }),
    });
    expect(signup.status).toBe(201);
    expect(await signup.json()).toEqual({ id: expect.any(String), email: 'ada@example.com', displayName: 'Ada', plan: 'free', emailVerified: false });
    const cookie = signup.headers.getSetCookie()[0].split(';')[0];
    expect(cookie).toMatch(/^svc_session=/);

    expect(await (await fetch(`${baseUrl}/auth/me`, { headers: { Cookie: cookie } })).json()).toMatchObject({ email: 'ada@example.com', plan: 'free' });
    const anonymous = await fetch(`${baseUrl}/projects`);
    expect([anonymous.status, ((await anonymous.json()) as { code: string }).code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(await (await fetch(`${baseUrl}/projects`, { headers: { Cookie: cookie } })).json()).toEqual({ owner: 'Ada', plan: 'free', projects: [] });
    // Creating takes a verified email (@RequireVerifiedEmail()): the example's mailer prints the link in development.
    const unverified = await fetch(`${baseUrl}/projects`, { method: 'POST', headers: { ...json, Cookie: cookie }, body: JSON.stringify({ name: 'Engine' }) });
    expect([unverified.status, ((await unverified.json()) as { code: string }).code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    const [, token] = (await waitForOutput(output, 'to ada@example.com: Verify your email ')).match(/\/verify-email\?token=([\w-]+)/)!;
    // Opened in the signed-in browser: the first proof of the mailbox ends every other credential of the user (docs/decisions/0022-account-pre-hijacking.md).
    expect((await fetch(`${baseUrl}/auth/verify-email`, { method: 'POST', headers: { ...json, Cookie: cookie }, body: JSON.stringify({ token }) })).status).toBe(204);
    const created = await fetch(`${baseUrl}/projects`, { method: 'POST', headers: { ...json, Cookie: cookie }, body: JSON.stringify({ name: 'Engine' }) });
    expect([created.status, created.headers.get('ratelimit-limit')]).toEqual([201, '20']);
    expect(await (await fetch(`${baseUrl}/projects`, { headers: { Cookie: cookie } })).json()).toEqual({ owner: 'Ada', plan: 'free', projects: ['Engine'] });

    const closed = await fetch(`${baseUrl}/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'eve@closed.example', password: 'correct horse battery' }) });
    expect([closed.status, ((await closed.json()) as { code: string }).code]).toEqual([403, 'HOOK_ABORTED']);

    const refused = await fetch(`${baseUrl}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'ada@example.com', password: 'wrong horse battery' }) });
    expect(refused.status).toBe(401);
    await waitForOutput(output, 'failed login (bad_password) for ada@example.com');

    expect(await (await fetch(`${baseUrl}/health`)).json()).toMatchObject({ status: 'ok', info: { svc: { status: 'up', database: 'up' } } });
    const document = (await (await fetch(`${baseUrl}/docs-json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/auth/signup', '/auth/me', '/auth/change-password', '/auth/oidc/{provider}/login', '/auth/oidc/{provider}/link', '/auth/accounts', '/projects', '/health']),
    );
  }, 60_000);
});

async function waitUntilServing(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the application exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the application did not start:\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Observers run after the response: wait for the line and give it, failing with everything printed. */
async function waitForOutput(output: string[], text: string): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    // Whole lines only: a chunk may end inside one.
    const line = output.join('').split('\n').slice(0, -1).find((printed) => printed.includes(text));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no "${text}" in the application's output:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

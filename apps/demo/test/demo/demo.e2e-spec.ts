import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { availableEngines, behaviourOnly } from '../../../../test/support/engines.js';
import { reserveLoopbackPort } from '../../../../test/support/listen.js';
import { cookieJarClient as client } from './cookie-jar-client.js';
import { type DemoProcess, startSuiteDemo, type SuiteDemo } from './demo-process.js';
import { refusalsForSuite, startForSuite } from './suite-demos.js';

const ENGINES = await availableEngines();

async function databaseUrlFor(engine: 'sqlite' | 'postgres', dir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (engine === 'sqlite') return { url: `sqlite:${join(dir, 'nested', 'demo.sqlite')}`, drop: async () => undefined };
  const name = `svc_demo_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      const again = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** The demo on a new database of `engine` (SQLite in a directory that does not exist yet). */
async function startOnEngine(engine: 'sqlite' | 'postgres'): Promise<SuiteDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  const database = await databaseUrlFor(engine, dir);
  const cleanUp = async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  const port = await reserveLoopbackPort();
  return startSuiteDemo({ PORT: String(port), DATABASE_URL: database.url, AUTH_BASE_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_BACKEND: 'off', REQUEST_TIMEOUT_SECONDS: '2' }, cleanUp);
}

// The demo on every engine starts at once.
const onEngine = startForSuite(Object.fromEntries(ENGINES.map((engine) => [engine, () => startOnEngine(engine)])) as Record<'sqlite' | 'postgres', () => Promise<SuiteDemo>>);

describe.each(ENGINES)('the demo app on %s, driven from outside (docs/demo.md)', (engine) => {
  let demo: DemoProcess;
  // The account's flow runs on each engine (the schema its migrations made); the HTTP rules once (test/support/engines.ts).
  const behaviourIt = behaviourOnly(engine, it);

  beforeAll(() => {
    ({ demo } = onEngine[engine]!);
  });

  it('signup → /me → logout → login → /profile, with EVENT lines; the schema was created by migrations', async () => {
    const call = client(demo.baseUrl);
    const signup = await call('POST', '/auth/signup', { email: 'Demo@Example.io', password: 'correct horse', displayName: 'Demo' });
    expect(signup.status).toBe(201);
    // AUTH_EMAIL_VERIFICATION defaults to optional: the body says whether the email is verified; two-step login is on beside the password.
    expect(signup.body).toEqual({ id: expect.any(String), email: 'demo@example.io', displayName: 'Demo', plan: 'free', emailVerified: false, mfa: { totp: false }, roles: ['member'] });
    expect((await call('GET', '/auth/me')).body.email).toBe('demo@example.io');
    expect((await call('POST', '/auth/logout')).status).toBe(204);
    expect((await call('GET', '/auth/me')).status).toBe(401);
    expect((await call('POST', '/auth/login', { email: 'demo@example.io', password: 'wrong horse' })).status).toBe(401);
    expect((await call('POST', '/auth/login', { email: 'demo@example.io', password: 'correct horse' })).status).toBe(200);
    expect((await call('GET', '/profile')).body).toEqual({ ...signup.body, permissions: [] }); // request.user also carries the roles' permissions (docs/guides/roles-and-permissions.md)

    const event = await demo.waitForLine('EVENT ', (line) => line.name === 'svc.login.failure');
    expect(event).toEqual({ name: 'svc.login.failure', payload: { email: 'demo@example.io', reason: 'bad_password', ip: expect.any(String), at: expect.any(String) } });
    await demo.waitForLine('EVENT ', (line) => line.name === 'svc.signup.after');
    await demo.waitForLine('EVENT ', (line) => line.name === 'svc.logout.after');
    for (const line of demo.lines.filter((l) => l.startsWith('EVENT ') || l.startsWith('MAIL '))) expect(() => JSON.parse(line.slice(line.indexOf(' ') + 1))).not.toThrow();
    expect(demo.lines.join('\n')).not.toContain('correct horse');
  });

  behaviourIt('listens on loopback by default, and its startup log maps no route that is off', async () => {
    const log = demo.lines.join('\n');
    expect(log).toMatch(/listening on 127\.0\.0\.1:\d+/);
    expect(log).toContain('Mapped {/auth/me, GET} route');
    expect(log).not.toContain('/bench/');
    expect((await fetch(`${demo.baseUrl}/bench/users/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  behaviourIt('closes a connection whose request body does not arrive in time (REQUEST_TIMEOUT_SECONDS)', async () => {
    const { port } = new URL(demo.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    const answer: string[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const sent = Date.now();
    socket.write('POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the connection was still open after 8 s')), 8000).unref());
    const closedAt = await Promise.race([closed, timeout]);
    expect(closedAt - sent).toBeLessThan(8000);
    expect(answer.join('')).toMatch(/^HTTP\/1\.1 408 /);
  });

  behaviourIt('lets no site frame /docs or a page of the demo', async () => {
    for (const path of ['/docs', '/', '/reset-password?token=abc']) {
      const response = await fetch(`${demo.baseUrl}${path}`);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  behaviourIt('serves its page, /docs and the reset page', async () => {
    const page = await fetch(`${demo.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-powered-by')).toBeNull();
    expect((await fetch(`${demo.baseUrl}/auth/me`)).headers.get('x-powered-by')).toBeNull();
    expect(await page.text()).toContain('<form id="account"');
    expect((await fetch(`${demo.baseUrl}/docs`)).status).toBe(200);
    expect((await fetch(`${demo.baseUrl}/reset-password?token=abc`)).status).toBe(200);
  });
});

const BACKENDS = ['memory', 'database', 'redis'] as const;

/** The demo limiting logins with `backend`, on a SQLite file of its own. */
async function startLimited(backend: (typeof BACKENDS)[number]): Promise<SuiteDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-demo-rl-'));
  const port = await reserveLoopbackPort();
  return startSuiteDemo(
    { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`, RATE_LIMIT_BACKEND: backend, RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '600', TRUSTED_IP_HEADER: 'x-forwarded-for' },
    async () => rmSync(dir, { recursive: true, force: true }),
  );
}

// The demo on every backend starts at once.
const limited = startForSuite({ memory: () => startLimited('memory'), database: () => startLimited('database'), redis: () => startLimited('redis') });

describe.each(BACKENDS)('the demo rate limiter, RATE_LIMIT_BACKEND=%s', (backend) => {
  it('limits login per address with RATE_LIMIT_MAX, honouring TRUSTED_IP_HEADER only when set', async () => {
    const { demo } = limited[backend]!;
    const login = (address: string) =>
      fetch(`${demo.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.7, ${address}` },
        body: JSON.stringify({ email: `${address.replaceAll(':', '-')}@example.io`, password: 'wrong password' }),
      });
    // A fresh /64 per run: Redis keeps counters between runs for the window's length.
    const prefix = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const address = `${prefix()}::1`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(address)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await login(address);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect((await login(`${prefix()}::1`)).status).toBe(401);
  });
});

describe('the demo app configuration', () => {
  const REFUSED: [Record<string, string>, string][] = [
    [{ AUTH_STRATEGY: 'ldap' }, 'AUTH_STRATEGY must be one of session, jwt, oidc, oauth2'],
    [{ PORT: 'eighty' }, 'PORT must be an integer between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be postgres://..., sqlite:<file> or sqlite::memory:'],
    [{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE must be one of true, false'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_SECRET: 'changeme' }, 'jwt.secretKey must be at least 32 characters'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_SECRET: 'your-secret-key-your-secret-key-your' }, 'jwt.secretKey is a placeholder value'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_SECRET: '0123456789'.repeat(4) }, 'jwt.secretKey is a placeholder value'],
    [{ AUTH_STRATEGY: 'jwt', AUTH_SECRET: 'abcdefghijklmnopqrstuvwxyz012345' }, 'jwt.secretKey is a placeholder value'],
  ];
  // Every refused start of this describe runs at once.
  const exitOf = refusalsForSuite(REFUSED.map(([env]) => env));
  it.each(REFUSED)('exits non-zero on %o, naming the field', async (env, message) => {
    const result = await exitOf(env);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});

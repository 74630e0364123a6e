// GET /auth/me with a session cookie vs an unguarded route of the same demo that makes the same
// user lookup by primary key, both on PostgreSQL, in one run. Target ratio: >= 0.85.
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { runDemo } from '../test/demo/demo-process.js';
import { reserveLoopbackPort } from '../test/support/listen.js';

const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function requestsPerSecond(url: string, headers: Record<string, string>, seconds = SECONDS): Promise<number> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchSessionMe(): Promise<void> {
  const database = `svc_bench_${Date.now()}`;
  await admin(`CREATE DATABASE ${database}`);
  const port = await reserveLoopbackPort();
  const demo = await runDemo({
    PORT: String(port),
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    RATE_LIMIT_BACKEND: 'off',
    DEMO_BENCH_ROUTES: '1',
  });
  if ('exitCode' in demo) throw new Error(`demo exited: ${demo.stderr}`);
  try {
    const signup = await fetch(`${demo.baseUrl}/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.io', password: 'bench password 1' }),
    });
    const user = (await signup.json()) as { id: string };
    const cookie = signup.headers.getSetCookie()[0].split(';')[0];
    const guarded = { url: `${demo.baseUrl}/auth/me`, headers: { cookie } };
    const unguarded = { url: `${demo.baseUrl}/bench/users/${user.id}`, headers: {} };

    await requestsPerSecond(guarded.url, guarded.headers, 2);
    await requestsPerSecond(unguarded.url, unguarded.headers, 2);
    // Alternate the two so neither profits from running second.
    const me = [await requestsPerSecond(guarded.url, guarded.headers)];
    const lookup = [await requestsPerSecond(unguarded.url, unguarded.headers)];
    lookup.push(await requestsPerSecond(unguarded.url, unguarded.headers));
    me.push(await requestsPerSecond(guarded.url, guarded.headers));
    const meRps = (me[0] + me[1]) / 2;
    const lookupRps = (lookup[0] + lookup[1]) / 2;
    console.log(`session: GET /auth/me (cookie, session+user in one query)   ${meRps.toFixed(0)} req/s`);
    console.log(`session: GET /bench/users/:id (unguarded, same lookup)     ${lookupRps.toFixed(0)} req/s`);
    console.log(`session: ratio guarded/unguarded                           ${(meRps / lookupRps).toFixed(2)} (target >= 0.85)`);
  } finally {
    await demo.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchSessionMe();

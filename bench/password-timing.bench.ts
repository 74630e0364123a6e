/**
 * Password timing benchmark (issue 4), not a timed test: prints medians and ratios, never fails.
 *
 * Compares, on an in-process app over loopback HTTP:
 * - POST /auth/login with an unknown email vs a wrong password (both must cost one bcrypt):
 *   login-timing-<engine> = median time of unknown email ÷ median time of wrong password;
 * - POST /auth/forgot-password with a known vs an unknown email: forgot-timing-<engine> = known ÷ unknown.
 *   The 202 is sent before the lookup, so what is timed is what an attacker can time: from sending
 *   the request to the end of the response, by a client with its own event loop; and since the
 *   lookup (and, for a known email, the token) runs after the response, every counted request
 *   follows one of its own kind, so work a kind leaves behind slows its own next request.
 * Each figure is the median of ROUNDS per-round ratios; in a round the two kinds alternate in blocks.
 * Target: each ratio within 10% of 1 (OWASP Authentication and Forgot Password cheat sheets).
 *
 * Run: node --conditions=source --import ./bench/ts-register.mjs bench/password-timing.bench.ts
 * (or through jest: jest --testMatch '<rootDir>/bench/password-timing.bench.ts').
 * Environment: BENCH_ENGINES=sqlite,postgres (default: every reachable one), BENCH_BCRYPT_COST=10
 * (10..15), BENCH_LOGIN_SAMPLES=120, BENCH_FORGOT_SAMPLES=1500 (per kind, over all rounds), BENCH_ROUNDS.
 * Other work on the machine (a test run) moves the ratios by several percent: bench on a quiet one.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { availableEngines, type Engine } from '../test/support/engines.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';
import { type Figure, figureOf, publish } from './support/figures.js';
import { ROUNDS } from './support/settings.js';
import { median } from './support/stats.js';

const BLOCK = 10;
const KNOWN = 'known@bench.test';
const PASSWORD = 'correct horse battery';

interface Comparison {
  figure: string;
  label: string;
  a: { name: string; body: Record<string, string>; status: number };
  b: { name: string; body: Record<string, string>; status: number };
}

/**
 * The client, in a worker thread: with its own event loop its clock stops when the response
 * arrives, as a remote client's would, not when the server's event loop is next free. Blocks of
 * each kind alternate (drift hits both alike); the first request of a block is not counted, so
 * every counted request follows one of its own kind, work left behind by it included.
 */
const CLIENT = `
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
async function post(base, path, body, expected) {
  const started = performance.now();
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== expected) throw new Error(path + ' answered ' + response.status + ', expected ' + expected);
  return elapsed;
}
parentPort.on('message', async ({ base, path, a, b, samples, block }) => {
  try {
    const times = { a: [], b: [] };
    const plan = { a, b };
    for (let i = 0; i < block * 2; i++) { const k = i % 2 ? 'b' : 'a'; await post(base, path, plan[k].body, plan[k].status); }
    while (times.a.length < samples || times.b.length < samples) {
      for (const kind of Math.random() < 0.5 ? ['a', 'b'] : ['b', 'a']) {
        for (let i = 0; i < block; i++) {
          const elapsed = await post(base, path, plan[kind].body, plan[kind].status);
          if (i > 0) times[kind].push(elapsed);
        }
      }
    }
    parentPort.postMessage({ times });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

/** One round: both kinds, alternating in blocks; the median time of each (ms). */
async function round(client: Worker, base: string, path: string, comparison: Comparison, samples: number): Promise<{ a: number; b: number }> {
  const reply = new Promise<{ times?: Record<'a' | 'b', number[]>; error?: string }>((resolve) => client.once('message', resolve));
  client.postMessage({ base, path, a: comparison.a, b: comparison.b, samples, block: BLOCK });
  const { times, error } = await reply;
  if (!times) throw new Error(error);
  return { a: median(times.a), b: median(times.b) };
}

/** ROUNDS rounds of `samples` per kind in all; the figure is the median of the rounds' a/b ratios. */
async function compare(client: Worker, base: string, path: string, comparison: Comparison, samples: number): Promise<Figure> {
  const a: number[] = [];
  const b: number[] = [];
  for (let index = 0; index < ROUNDS; index++) {
    const medians = await round(client, base, path, comparison, Math.ceil(samples / ROUNDS));
    a.push(medians.a);
    b.push(medians.b);
  }
  return figureOf(
    comparison.figure,
    { between: [0.9, 1.1] },
    { label: comparison.a.name, unit: 'ms', rounds: a },
    { label: comparison.b.name, unit: 'ms', rounds: b },
    `${comparison.label}, at least ${Math.ceil(samples / ROUNDS)} timed requests per kind and round`,
  );
}

async function benchEngine(engine: Engine, bcryptCost: number, loginSamples: number, forgotSamples: number): Promise<Figure[]> {
  const t: TestApp = await createTestApp({ engine, options: { password: { bcryptCost } } });
  const client = new Worker(CLIENT, { eval: true });
  try {
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}/auth`;
    const signup = await fetch(`${base}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: KNOWN, password: PASSWORD }) });
    if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
    const login = await compare(
      client,
      base,
      '/login',
      {
        figure: `login-timing-${engine}`,
        label: `${engine}: POST /login (401 INVALID_CREDENTIALS), bcrypt cost ${bcryptCost}`,
        a: { name: 'unknown email', body: { email: 'nobody@bench.test', password: 'wrong horse battery' }, status: 401 },
        b: { name: 'wrong password', body: { email: KNOWN, password: 'wrong horse battery' }, status: 401 },
      },
      loginSamples,
    );
    const forgot = await compare(
      client,
      base,
      '/forgot-password',
      {
        figure: `forgot-timing-${engine}`,
        label: `${engine}: POST /forgot-password (202)`,
        a: { name: 'known email', body: { email: KNOWN }, status: 202 },
        b: { name: 'unknown email', body: { email: 'nobody@bench.test' }, status: 202 },
      },
      forgotSamples,
    );
    return [login, forgot];
  } finally {
    await client.terminate();
    await t.close();
  }
}

function intOf(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

export async function runPasswordTimingBench(): Promise<void> {
  const bcryptCost = intOf('BENCH_BCRYPT_COST', 10);
  const loginSamples = intOf('BENCH_LOGIN_SAMPLES', 120);
  const forgotSamples = intOf('BENCH_FORGOT_SAMPLES', 1500);
  const reachable = await availableEngines();
  const wanted = process.env.BENCH_ENGINES?.split(',').map((name) => name.trim()) ?? reachable;
  const engines = reachable.filter((engine) => wanted.includes(engine));
  const print = (text: string) => process.stdout.write(`${text}\n`);
  print(`password timing: medians over loopback HTTP, session strategy, bcrypt cost ${bcryptCost}, ${ROUNDS} rounds, node ${process.version}`);
  const figures: Figure[] = [];
  for (const engine of engines) figures.push(...(await benchEngine(engine, bcryptCost, loginSamples, forgotSamples)));
  publish(figures);
}

// Run directly (node, with bench/ts-register.mjs) it starts at once; imported, it waits to be called.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPasswordTimingBench();

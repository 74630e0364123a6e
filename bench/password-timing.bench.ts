/**
 * Password timing benchmark (issue 4), not a timed test: prints medians and ratios, never fails.
 *
 * Compares, on an in-process app over loopback HTTP:
 * - POST /auth/login with an unknown email vs a wrong password (both must cost one bcrypt);
 * - POST /auth/forgot-password with a known vs an unknown email (answered before the lookup).
 * Target: each ratio within 10% of 1 (OWASP Authentication and Forgot Password cheat sheets).
 *
 * Run: node --conditions=source --import ./bench/ts-register.mjs bench/password-timing.bench.ts
 * (or through jest: jest --testMatch '<rootDir>/bench/password-timing.bench.ts').
 * Environment: BENCH_ENGINES=sqlite,postgres (default: every reachable one), BENCH_BCRYPT_COST=10
 * (10..15), BENCH_LOGIN_SAMPLES=120, BENCH_FORGOT_SAMPLES=1500.
 * Other work on the machine (a test run) moves the ratios by several percent: bench on a quiet one.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { availableEngines, type Engine } from '../test/support/engines.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';

const BLOCK = 10;
const KNOWN = 'known@bench.test';
const PASSWORD = 'correct horse battery';

interface Comparison {
  label: string;
  a: { name: string; body: Record<string, string>; status: number };
  b: { name: string; body: Record<string, string>; status: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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

async function compare(client: Worker, base: string, path: string, comparison: Comparison, samples: number): Promise<string> {
  const reply = new Promise<{ times?: Record<'a' | 'b', number[]>; error?: string }>((resolve) => client.once('message', resolve));
  client.postMessage({ base, path, a: comparison.a, b: comparison.b, samples, block: BLOCK });
  const { times, error } = await reply;
  if (!times) throw new Error(error);
  const a = median(times.a);
  const b = median(times.b);
  const ratio = a / b;
  const verdict = Math.abs(ratio - 1) <= 0.1 ? 'within 10%' : 'OVER 10%';
  return [
    `  ${comparison.label}`,
    `    ${comparison.a.name.padEnd(22)} median ${a.toFixed(3)} ms (n=${times.a.length})`,
    `    ${comparison.b.name.padEnd(22)} median ${b.toFixed(3)} ms (n=${times.b.length})`,
    `    ratio ${ratio.toFixed(3)}  ${verdict}`,
  ].join('\n');
}

async function benchEngine(engine: Engine, bcryptCost: number, loginSamples: number, forgotSamples: number): Promise<string> {
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
        label: 'POST /login (401 INVALID_CREDENTIALS)',
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
        label: 'POST /forgot-password (202)',
        a: { name: 'known email', body: { email: KNOWN }, status: 202 },
        b: { name: 'unknown email', body: { email: 'nobody@bench.test' }, status: 202 },
      },
      forgotSamples,
    );
    return `${engine}, session strategy, bcrypt cost ${bcryptCost}\n${login}\n${forgot}`;
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
  print(`password timing: medians over loopback HTTP, node ${process.version}`);
  for (const engine of engines) print(await benchEngine(engine, bcryptCost, loginSamples, forgotSamples));
}

// Run directly (node, with bench/ts-register.mjs) it starts at once; imported, it waits to be called.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPasswordTimingBench();

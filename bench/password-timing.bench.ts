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
import { availableEngines, type Engine } from '../test/support/engines.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';
import { type Figure, publish } from './support/figures.js';
import { ROUNDS } from './support/settings.js';
import { compareTimings, timingClient } from './support/timed-pairs.js';

const KNOWN = 'known@bench.test';
const PASSWORD = 'correct horse battery';

async function benchEngine(engine: Engine, bcryptCost: number, loginSamples: number, forgotSamples: number): Promise<Figure[]> {
  const t: TestApp = await createTestApp({ engine, options: { password: { bcryptCost } } });
  const client = timingClient();
  try {
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}/auth`;
    const signup = await fetch(`${base}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: KNOWN, password: PASSWORD }) });
    if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
    const login = await compareTimings(
      client,
      base,
      {
        figure: `login-timing-${engine}`,
        path: '/login',
        label: `${engine}: POST /login (401 INVALID_CREDENTIALS), bcrypt cost ${bcryptCost}`,
        a: { name: 'unknown email', body: { email: 'nobody@bench.test', password: 'wrong horse battery' }, status: 401 },
        b: { name: 'wrong password', body: { email: KNOWN, password: 'wrong horse battery' }, status: 401 },
      },
      loginSamples,
    );
    const forgot = await compareTimings(
      client,
      base,
      {
        figure: `forgot-timing-${engine}`,
        path: '/forgot-password',
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

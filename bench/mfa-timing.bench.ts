/**
 * Two-step login timing benchmark (issue 23), not a timed test: prints medians and a ratio, never fails.
 *
 * POST /auth/mfa/verify with a wrong TOTP code vs a wrong recovery code, on an in-process app over
 * loopback HTTP: mfa-verify-timing-<engine> = median time of a wrong code ÷ median time of a wrong
 * recovery code (both 401 MFA_CODE_INVALID). An attacker holding a password must not learn from
 * the clock which of the two checks ran, or how far one got.
 * Same conditions for both: before every timed request the client logs in (untimed) and gets a
 * fresh challenge, so each verify meets a challenge with no attempt spent, the same account and
 * the same stored codes; the wrong recovery code has the shape of a real one.
 * Each figure is the median of ROUNDS per-round ratios; in a round the two kinds alternate in blocks.
 * Target: within 10% of 1.
 *
 * Run: node --conditions=source --import ./bench/ts-register.mjs bench/mfa-timing.bench.ts
 * Environment: BENCH_ENGINES=sqlite,postgres (default: every reachable one), BENCH_MFA_SAMPLES=200
 * (per kind, over all rounds), BENCH_ROUNDS. Each timed request costs a login (bcrypt cost 10) first.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { availableEngines, type Engine } from '../test/support/engines.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../test/support/test-app.js';
import { codeOfSecretAt, wrongCodeAt } from '../test/two-step/codes-of-secret.js';
import { type Figure, publish } from './support/figures.js';
import { ROUNDS, setting } from './support/settings.js';
import { compareTimings, timingClient } from './support/timed-pairs.js';

const EMAIL = 'two-step@bench.test';
const PASSWORD = 'correct horse battery';

async function post(url: string, body: unknown, expected: number, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status !== expected) throw new Error(`${url} answered ${response.status}, expected ${expected}: ${await response.text()}`);
  return response;
}

const cookieOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

/** A user with TOTP on; its recovery codes and the secret. */
async function userWithTotp(base: string, t: TestApp): Promise<{ secret: string; recoveryCodes: string[] }> {
  const cookie = cookieOf(await post(`${base}/signup`, { email: EMAIL, password: PASSWORD }, 201));
  const { secret } = (await (await post(`${base}/mfa/totp/setup`, { password: PASSWORD }, 200, cookie)).json()) as { secret: string };
  const enabled = await post(`${base}/mfa/totp/enable`, { code: codeOfSecretAt(secret, t.clock.now()) }, 200, cookie);
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/** The recovery codes' alphabet (the library's: no l, o, 0 or 1). */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A recovery code of the real ones' shape and alphabet (each character the next in it, the dashes kept), none of them. */
function wrongRecoveryCode(recoveryCodes: string[]): string {
  const next = (character: string) => (character === '-' ? '-' : RECOVERY_ALPHABET[(RECOVERY_ALPHABET.indexOf(character) + 1) % RECOVERY_ALPHABET.length]);
  const candidate = [...recoveryCodes[0]].map(next).join('');
  if (recoveryCodes.includes(candidate)) throw new Error('the shifted recovery code is a real one');
  return candidate;
}

async function benchEngine(engine: Engine, samples: number): Promise<Figure> {
  const t: TestApp = await createTestApp({ engine, options: { secret: TEST_SECRET, mfa: { issuer: 'svc bench' } } });
  const client = timingClient();
  try {
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}/auth`;
    const { secret, recoveryCodes } = await userWithTotp(base, t);
    return await compareTimings(
      client,
      base,
      {
        figure: `mfa-verify-timing-${engine}`,
        path: '/mfa/verify',
        label: `${engine}: POST /mfa/verify (401 MFA_CODE_INVALID), each on a fresh challenge of one account`,
        before: { path: '/login', body: { email: EMAIL, password: PASSWORD }, status: 200 },
        a: { name: 'wrong code', body: { code: wrongCodeAt(secret, t.clock.now()) }, status: 401 },
        b: { name: 'wrong recovery code', body: { recoveryCode: wrongRecoveryCode(recoveryCodes) }, status: 401 },
      },
      samples,
    );
  } finally {
    await client.terminate();
    await t.close();
  }
}

export async function runMfaTimingBench(): Promise<void> {
  const samples = Math.ceil(setting('BENCH_MFA_SAMPLES', 200));
  const reachable = await availableEngines();
  const wanted = process.env.BENCH_ENGINES?.split(',').map((name) => name.trim()) ?? reachable;
  const engines = reachable.filter((engine) => wanted.includes(engine));
  process.stdout.write(`two-step login timing: medians over loopback HTTP, session strategy, ${ROUNDS} rounds, node ${process.version}\n`);
  const figures: Figure[] = [];
  for (const engine of engines) figures.push(await benchEngine(engine, samples));
  publish(figures);
}

// Run directly (node, with bench/ts-register.mjs) it starts at once; imported, it waits to be called.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runMfaTimingBench();

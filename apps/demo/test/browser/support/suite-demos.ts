import type { DemoProcess } from '../../demo/demo-process.js';
import { type DemoWithClock, startDemoWithClock } from './demo-with-clock.js';
import { startPageDemo } from './page-demo.js';

/**
 * Room for the signups, logins and page loads (each jwt page load asks POST /auth/refresh) of every
 * test that shares a demo, in one window of the limiter; the tests of the limiter's refusals start
 * demos of their own (RATE_LIMIT_MAX=1).
 */
const SHARED_RATE_LIMIT = { RATE_LIMIT_MAX: '500' };

const started = new Map<string, Promise<DemoProcess>>();

function shared<Demo extends DemoProcess>(key: string, start: () => Promise<Demo>): Promise<Demo> {
  let demo = started.get(key);
  if (!demo) {
    demo = start();
    started.set(key, demo);
  }
  return demo as Promise<Demo>;
}

const keyOf = (env: Record<string, string>, clock: boolean) => JSON.stringify([clock, Object.entries(env).sort(([a], [b]) => a.localeCompare(b))]);

/**
 * The suite's demo with `env` (startPageDemo): one per environment for all the case modules of a
 * browser suite (apps/demo/test/browser/<group>.e2e-spec.ts; Jest gives each suite its own
 * modules, so each suite its own demos), started when a block first asks for it, stopped after the
 * suite's last test (`stopSuiteDemos`). For tests that need no fresh database: each makes its own
 * accounts, under addresses no other test of the suite uses.
 */
export function suiteDemo(env: Record<string, string> = {}): Promise<DemoProcess> {
  return shared(keyOf(env, false), () => startPageDemo({ ...SHARED_RATE_LIMIT, ...env }));
}

/**
 * The suite's demo with `env` and a ShiftableClock (startDemoWithClock), shared as `suiteDemo`:
 * its tests move its clock only forward and rely on no absolute time at the server.
 */
export function suiteDemoWithClock(env: Record<string, string> = {}): Promise<DemoWithClock> {
  return shared(keyOf(env, true), () => startDemoWithClock({ ...SHARED_RATE_LIMIT, ...env }));
}

/** Stops the suite's demos: the suite file's afterAll, after its last test. */
export async function stopSuiteDemos(): Promise<void> {
  const demos = [...started.values()];
  started.clear();
  await Promise.all(demos.map(async (demo) => (await demo.catch(() => undefined))?.stop()));
}

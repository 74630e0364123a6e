import { existsSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { Config } from '@jest/types';
import { type BrowserServer, chromium } from 'playwright-core';

/** Where globalTeardown finds the shared Chromium (globalSetup and globalTeardown share one global object). */
const SHARED_CHROMIUM = Symbol.for('svc.test.sharedChromium');

// Jest loads this file outside its module mapping, so it imports nothing relative; the browser
// suites' support (apps/demo/test/browser) takes the Chromium settings from here.

/** Debian's package (`apt-get install -y chromium`); CHROMIUM_PATH names another build. Never a downloaded browser. */
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Headless, no GPU, no sandbox (Chromium's sandbox refuses to run as root, as in CI), nothing phoning
 * home (no background networking, component updates, sync, first-run or QUIC), and no host but this
 * machine: every other name resolves to nothing (oidc-provider's own pages @import a web font, which
 * a test must neither wait for nor depend on). Chromium's resolver says so rather than a Playwright
 * route: a route sends every request of the page through the test process and turns the HTTP cache
 * off (Playwright's `BrowserContext.route`), which made each page load its scripts again.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/**
 * The environment variable through which Jest's globalSetup hands its one Chromium (a
 * `launchServer` on loopback, behind a random path) to every browser suite of the run.
 */
export const SHARED_CHROMIUM_ENV = 'SVC_TEST_CHROMIUM_WS';

export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path): path is string => path !== undefined && path !== '' && existsSync(path));
}

/**
 * Says loudly, once per run, which real engines the suite can reach; fails when one is required.
 * When the run includes a browser suite, starts the one Chromium they all connect to.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): Promise<void> {
  const postgresSelected = postgresIsSelected();
  const browser = runsBrowserSuites(globalConfig, projectConfig.rootDir) ? startSharedChromium() : undefined;
  const checks = [
    ...(postgresSelected ? [{ name: 'PostgreSQL', port: 5432, required: process.env.REQUIRE_POSTGRES === '1' }] : []),
    { name: 'Redis', port: 6379, required: process.env.REQUIRE_REDIS === '1' },
  ];
  if (!postgresSelected) console.warn(`\n!!! SVC_TEST_ENGINES=${process.env.SVC_TEST_ENGINES}: PostgreSQL variants are NOT RUN !!!\n`);
  for (const check of checks) {
    if (await reachable(check.port)) continue;
    if (check.required) {
      await (await browser)?.close();
      throw new Error(`${check.name} on 127.0.0.1:${check.port} is required (REQUIRE_*=1) but not answering`);
    }
    console.warn(`\n!!! ${check.name} on 127.0.0.1:${check.port} is not answering: its tests will be SKIPPED !!!\n`);
  }
  const server = await browser;
  if (!server) return;
  (globalThis as Record<symbol, unknown>)[SHARED_CHROMIUM] = server;
  // Jest's workers start after this and inherit the environment.
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
}

/**
 * Whether SVC_TEST_ENGINES (unset: every engine) names PostgreSQL; test/support/engines.ts's
 * `selectedEngines` reads it the same way in the suites. Leaving PostgreSQL out under
 * REQUIRE_POSTGRES=1 fails the run before any suite starts.
 */
function postgresIsSelected(): boolean {
  const raw = process.env.SVC_TEST_ENGINES;
  if (raw === undefined || raw.trim() === '') return true;
  const names = raw.split(',').map((name) => name.trim());
  if (names.some((name) => name !== 'sqlite' && name !== 'postgres')) throw new TypeError(`SVC_TEST_ENGINES must list engines among sqlite, postgres, got ${JSON.stringify(raw)}`);
  const selected = names.includes('postgres');
  if (!selected && process.env.REQUIRE_POSTGRES === '1') throw new TypeError(`SVC_TEST_ENGINES=${raw} leaves PostgreSQL out while REQUIRE_POSTGRES=1 requires it: unset one of them`);
  return selected;
}

/** Whether a browser suite (apps/demo/test/browser) is among those the run's path patterns select (all when there are none). */
function runsBrowserSuites(globalConfig: Config.GlobalConfig, rootDir: string): boolean {
  if (!chromiumPath()) return false;
  const patterns = globalConfig.testPathPatterns;
  if (!patterns?.isSet()) return true;
  const matcher = patterns.toExecutor({ rootDir });
  const directory = join(rootDir, 'apps/demo/test/browser');
  return readdirSync(directory)
    .filter((name) => name.endsWith('.e2e-spec.ts'))
    .some((name) => matcher.isMatch(join(directory, name)));
}

/** Chromium's own processes, listening for Playwright clients on a loopback port behind a random path. */
function startSharedChromium(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, host: '127.0.0.1' });
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

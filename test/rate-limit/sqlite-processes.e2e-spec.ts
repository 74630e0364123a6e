import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RateLimitCheck } from '#svc/auth';
import { sharedSqliteFile, type SharedDatabase } from './support/databases.js';
import { WINDOW_ALIGNED_EPOCH_MS } from './support/window-aligned.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface InstanceReport {
  results: RateLimitCheck[];
  firstSentAt: number;
  lastAnsweredAt: number;
}

/** Starts one instance process (support/sqlite-instance.ts) and resolves once it has opened the database. */
function startInstance(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; report: Promise<InstanceReport> }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', './bench/ts-register.mjs', 'test/rate-limit/support/sqlite-instance.ts', ...args], { cwd: ROOT });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  // 'close', not 'exit': it comes once the pipes are closed too, so the report on stdout is read
  // whole and nothing of the process outlives the test.
  const report = new Promise<InstanceReport>((resolve, reject) => {
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`instance exited with ${code}: ${errors}`));
      resolve(JSON.parse(output.split('\n')[1]) as InstanceReport);
    });
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve({ child, report });
    });
    child.on('close', () => reject(new Error(`instance failed to start: ${errors}`)));
  });
}

// The in-process two-connection variant (storages/sqlite.ts) cannot make SQLite's locks
// meet: better-sqlite3 is synchronous, so one thread runs one statement at a time. Here three
// processes share the file, as three application instances would.
describe('database backend on SQLite across processes', () => {
  let database: SharedDatabase;

  beforeAll(async () => {
    database = await sharedSqliteFile(); // creates the schema in a temporary file
  });

  afterAll(async () => {
    await database?.close();
  });

  it('lets exactly N of 3N concurrent checks from three processes through', async () => {
    const n = 150;
    const args = [database.file!, '198.51.100.7:/auth/login', String(n), String(n), String(WINDOW_ALIGNED_EPOCH_MS)];
    const instances = await Promise.all([startInstance(args), startInstance(args), startInstance(args)]);
    const startAt = Date.now() + 300;
    for (const { child } of instances) child.stdin.write(`go ${startAt}\n`);
    const reports = await Promise.all(instances.map((instance) => instance.report));

    const results = reports.flatMap((report) => report.results);
    expect(results).toHaveLength(3 * n);
    expect(results.filter((result) => result.allowed)).toHaveLength(n);
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 3 * n }, (_, i) => i + 1));
    // The three were at work at one moment: each had sent a check before any had its last answer.
    expect(Math.max(...reports.map((report) => report.firstSentAt))).toBeLessThan(Math.min(...reports.map((report) => report.lastAnsweredAt)));
  }, 60_000);
});

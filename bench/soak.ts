/**
 * `npm run soak`: memory under sustained load. For each of the session and jwt strategies, the
 * demo application (in this process) serves at least 200,000 GET /auth/me plus a mix of logins
 * and (jwt) refreshes, sent from a worker thread. Heap used (after full garbage collections) and
 * RSS are printed after a warm-up and at the end; the script exits 1 when the heap grew more than
 * the noise threshold, or when a request failed.
 *
 * Threshold (SOAK_MAX_HEAP_GROWTH_MB, default 3): with the load in its own thread, the main heap
 * after collection holds only the application. Across runs here (SQLite and PostgreSQL, both
 * strategies) its growth stayed within -0.6..+0.7 MB: what V8 keeps depends on timing (optimised
 * code, inline caches, pool sizes). The least a request can leave behind is an array slot (8 bytes,
 * Node has no pointer compression) plus a heap number (16 bytes): 24 bytes, 4.8 MB over 200,000
 * requests. A per-request leak cannot hide under 3 MB, and noise stays far below it. (Checked once
 * by retaining a short string per request in a 'request' listener: +3.8 MB after only 35,000.)
 *
 * Environment: DATABASE_URL (postgres://...; default a fresh SQLite file per strategy),
 * SOAK_ME_REQUESTS (200000), SOAK_LOGINS (200), SOAK_REFRESHES (5000), SOAK_MAX_HEAP_GROWTH_MB (3).
 * Run: node --expose-gc --conditions=source --import ./bench/ts-register.mjs bench/soak.ts
 */
import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { createDemoApp } from '../apps/demo/src/demo-app.js';
import { readDemoConfig } from '../apps/demo/src/demo-config.js';
import type { SoakJob, SoakLoad } from './soak-load.worker.js';

const ME_REQUESTS = setting('SOAK_ME_REQUESTS', 200_000);
const LOGINS = setting('SOAK_LOGINS', 200);
const REFRESHES = setting('SOAK_REFRESHES', 5_000);
const MAX_HEAP_GROWTH_MB = setting('SOAK_MAX_HEAP_GROWTH_MB', 3);
const WARM_UP = { meRequests: 20_000, logins: 20, refreshes: 500 };
const MB = 1024 * 1024;

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

interface Memory {
  heapUsed: number;
  rss: number;
}

/** Heap used once full collections stop freeing anything (at most 10 rounds), and RSS. */
async function settledMemory(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('global.gc is missing: run with node --expose-gc (npm run soak does)');
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    gc();
    await nextTurn();
    const { heapUsed } = process.memoryUsage();
    if (Math.abs(previous - heapUsed) < 64 * 1024) break;
    previous = heapUsed;
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/** The demo prints an EVENT line per login and refresh: counted, not printed. */
function muteDemoEventLines(): () => number {
  const write = process.stdout.write.bind(process.stdout);
  let muted = 0;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && (chunk.startsWith('EVENT ') || chunk.startsWith('MAIL '))) {
      muted++;
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  return () => muted;
}

function run(worker: Worker, job: SoakJob): Promise<SoakLoad> {
  return new Promise((resolve, reject) => {
    worker.once('message', (message: SoakLoad | { error: string }) => ('error' in message ? reject(new Error(message.error)) : resolve(message)));
    worker.once('error', reject);
    worker.postMessage(job);
  });
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const signedMb = (bytes: number) => `${bytes >= 0 ? '+' : ''}${(bytes / MB).toFixed(1)} MB`;

async function soak(strategy: 'session' | 'jwt'): Promise<boolean> {
  const sqliteFile = join(tmpdir(), `svc-soak-${strategy}-${randomBytes(4).toString('hex')}.sqlite`);
  const config = readDemoConfig({
    PORT: '0',
    AUTH_STRATEGY: strategy,
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${sqliteFile}`,
    AUTH_SECRET: randomBytes(48).toString('base64url'),
    RATE_LIMIT_BACKEND: 'off',
  });
  const engine = config.database.type === 'postgres' ? 'PostgreSQL' : 'SQLite';
  let app: INestApplication | undefined;
  const worker = new Worker(new URL('./soak-load.worker.ts', import.meta.url));
  try {
    app = await createDemoApp(config, { logger: false });
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const job = (load: Omit<SoakJob, 'url' | 'strategy'>): SoakJob => ({ url, strategy, ...load });

    await run(worker, job({ ...WARM_UP, refreshes: strategy === 'jwt' ? WARM_UP.refreshes : 0 }));
    const start = await settledMemory();
    const load = await run(worker, job({ meRequests: ME_REQUESTS, logins: LOGINS, refreshes: strategy === 'jwt' ? REFRESHES : 0 }));
    const end = await settledMemory();

    const growth = end.heapUsed - start.heapUsed;
    const failed = load.me.non2xx > 0 || load.me.errors > 0 || load.failures.length > 0 || load.me.requests < ME_REQUESTS;
    const grewTooMuch = growth > MAX_HEAP_GROWTH_MB * MB;
    console.log(`\n=== soak: ${strategy} on ${engine} ===`);
    console.log(`GET /auth/me   ${load.me.requests} in ${load.me.seconds.toFixed(1)} s (${load.me.requestsPerSecond.toFixed(0)} req/s), ${load.me.non2xx} non-2xx, ${load.me.errors} errors`);
    console.log(`mix            ${load.logins} logins, ${load.refreshes} refreshes${load.failures.length ? `, failures: ${[...new Set(load.failures)].join(', ')}` : ''}`);
    console.log(`heap used      start ${mb(start.heapUsed)}, end ${mb(end.heapUsed)}, growth ${signedMb(growth)} (limit ${MAX_HEAP_GROWTH_MB} MB)${grewTooMuch ? '  <-- TOO MUCH' : ''}`);
    console.log(`rss            start ${mb(start.rss)}, end ${mb(end.rss)}, growth ${signedMb(end.rss - start.rss)} (process-wide, the load worker included; not judged)`);
    return !failed && !grewTooMuch;
  } finally {
    await worker.terminate();
    await app?.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${sqliteFile}${suffix}`, { force: true });
  }
}

const mutedLines = muteDemoEventLines();
let passed = true;
for (const strategy of ['session', 'jwt'] as const) passed = (await soak(strategy)) && passed;
console.log(`\n${mutedLines()} EVENT/MAIL lines of the demo not shown. ${passed ? 'PASS: no heap growth beyond noise, no failed request' : 'FAIL'}`);
process.exit(passed ? 0 : 1);

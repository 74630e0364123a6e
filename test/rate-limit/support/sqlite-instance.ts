// One application instance in its own process, for the cross-process SQLite test: it opens the
// shared file, says "ready", waits for "go <epoch ms>" on stdin and that moment, makes its checks
// and prints them as JSON with the moment its first check was sent and its last one answered.
// Args: <file> <key> <checks> <max> <nowMs>
import { createInterface } from 'node:readline';
import { DataSource } from 'typeorm';
import { TypeOrmRateLimitStorage, UnitOfWork } from '#svc/auth';

/** The checks are spread over this many milliseconds, so the processes' checks overlap in time. */
const SPREAD_MS = 300;

const [file, key, checks, max, nowMs] = process.argv.slice(2);
const dataSource = await new DataSource({ type: 'better-sqlite3', database: file, timeout: 10_000 }).initialize();
const storage = new TypeOrmRateLimitStorage(new UnitOfWork(dataSource), { now: () => new Date(Number(nowMs)) });

const input = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
const startAt = await new Promise<number>((resolve) => input.once('line', (line) => resolve(Number(line.split(' ')[1]))));
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));

const firstSentAt = Date.now();
const results = await Promise.all(
  Array.from({ length: Number(checks) }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, Math.floor((i * SPREAD_MS) / Number(checks))));
    return storage.check(key, 60, Number(max));
  }),
);
const lastAnsweredAt = Date.now();
process.stdout.write(`${JSON.stringify({ results, firstSentAt, lastAnsweredAt })}\n`);
input.close();
await dataSource.destroy();

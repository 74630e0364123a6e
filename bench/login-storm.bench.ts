// GET /auth/me (session cookie) at a steady paced rate, well below saturation: its p99 latency while
// logins keep every bcrypt thread busy, over its p99 at the same rate with no logins. bcrypt runs on
// the libuv thread pool and must never hold up the event loop. Session strategy, PostgreSQL; the
// reader and the logging-in user are different accounts (logins evict the oldest sessions).
// Figure: me-p99-login-storm-vs-idle (target <= 2.0).
// Diagnostic, same rounds: the same bcrypt load in another process (bcrypt-throughput.ts), which
// takes the same CPU from the demo but cannot touch its event loop or thread pool. Its p99 over
// idle (me-p99-bcrypt-elsewhere-vs-idle, report only) is what the machine alone costs.
import bcrypt from 'bcrypt';
import { signUp } from './support/accounts.js';
import { bcryptRun } from './support/bcrypt-limit.js';
import { PASSWORD, startDemo, threadPoolSize } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { closedLoop, json } from './support/load.js';
import { PacedClient } from './support/paced.js';
import { settle } from './support/pause.js';
import { adminQuery } from './support/postgres.js';
import { setting } from './support/settings.js';
import { median, percentile } from './support/stats.js';

const RATE = setting('BENCH_PACED_RATE', 100);
const SECONDS = setting('BENCH_PACED_SECONDS', 8);
const LOGIN_CONCURRENCY = 2 * Number(threadPoolSize());
/**
 * Each round holds three paced slices of SECONDS. A p99 of 800 answers is their 8th slowest, and
 * one stall of the shared machine moves it: five rounds (two and a half minutes) let the median
 * drop such a round.
 */
const ROUNDS = Math.max(3, Math.round(setting('BENCH_STORM_ROUNDS', 5)));
/** The logins start this long before the paced window (the thread pool is full by then) and end after it. */
const LEAD_SECONDS = 1;

const demo = await startDemo({ AUTH_STRATEGY: 'session' });
const paced = new PacedClient();
try {
  const reader = await signUp(demo.baseUrl, 'reader@bench.test', 'session');
  const storm = await signUp(demo.baseUrl, 'storm@bench.test', 'session');
  const [{ password_hash: hash }] = await adminQuery<{ password_hash: string }>('SELECT password_hash FROM users LIMIT 1', demo.databaseUrl);
  const cost = bcrypt.getRounds(hash);
  const login = json(`${demo.baseUrl}/auth/login`, { email: storm.email, password: PASSWORD }, LOGIN_CONCURRENCY);
  const job = { url: `${demo.baseUrl}/auth/me`, headers: reader.meHeaders, rate: RATE, seconds: SECONDS };
  console.log(
    `session strategy, PostgreSQL, GET /auth/me paced at ${RATE}/s for ${SECONDS} s, storm: ${LOGIN_CONCURRENCY} concurrent logins (UV_THREADPOOL_SIZE=${threadPoolSize()}), ${ROUNDS} rounds`,
  );
  await paced.run({ ...job, seconds: 2 });
  type Kind = 'idle' | 'storm' | 'elsewhere';
  const p50: Record<Kind, number[]> = { idle: [], storm: [], elsewhere: [] };
  const lateness: Record<Kind, number[]> = { idle: [], storm: [], elsewhere: [] };
  const loginsPerSecond: number[] = [];
  const measure = async (kind: Kind) => {
    const result = await paced.run(job);
    p50[kind].push(percentile(result.latencies, 50));
    lateness[kind].push(percentile(result.lateness, 99));
    return percentile(result.latencies, 99);
  };
  const rounds = await interleavedRounds(
    {
      idle: () => measure('idle'),
      storm: async () => {
        const logins = closedLoop(login, SECONDS + 2 * LEAD_SECONDS);
        await new Promise((resolve) => setTimeout(resolve, LEAD_SECONDS * 1000));
        const p99 = await measure('storm');
        loginsPerSecond.push((await logins).perSecondByLatency);
        await settle();
        return p99;
      },
      elsewhere: async () => {
        const load = bcryptRun({ cost, concurrency: LOGIN_CONCURRENCY, seconds: SECONDS + 2 * LEAD_SECONDS });
        await load.started;
        await new Promise((resolve) => setTimeout(resolve, LEAD_SECONDS * 1000));
        const p99 = await measure('elsewhere');
        await load.result;
        return p99;
      },
    },
    ROUNDS,
  );
  const ms = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
  publish([
    figureOf(
      'me-p99-login-storm-vs-idle',
      { atMost: 2 },
      { label: 'p99 during logins', unit: 'ms', rounds: rounds.storm },
      { label: 'p99 idle', unit: 'ms', rounds: rounds.idle },
      `p50 idle ${ms(p50.idle)} ms, during logins ${ms(p50.storm)} ms; client's own p99 delay idle ${ms(lateness.idle)} ms, during logins ${ms(lateness.storm)} ms; logins ${median(loginsPerSecond).toFixed(2)}/s`,
    ),
    figureOf(
      'me-p99-bcrypt-elsewhere-vs-idle',
      'report only',
      { label: 'p99, bcrypt in another process', unit: 'ms', rounds: rounds.elsewhere },
      { label: 'p99 idle', unit: 'ms', rounds: rounds.idle },
      `p50 ${ms(p50.elsewhere)} ms; client's own p99 delay ${ms(lateness.elsewhere)} ms`,
    ),
  ]);
} finally {
  await paced.close();
  await demo.stop();
}

// Successful POST /auth/login per second (session strategy, PostgreSQL, rate limiting off, a few
// users in turn, enough connections to keep every libuv thread busy) vs what bcrypt alone allows: compares
// at the same cost on the same thread pool size, in a separate process, interleaved with the
// login slices. Both sides are estimated the same way, concurrency ÷ mean latency (Little's law;
// see closedLoop in support/load.ts), the plain counts are kept beside them.
// Figure: login-vs-bcrypt-limit (target >= 0.9).
import bcrypt from 'bcrypt';
import { signUp } from './support/accounts.js';
import { bcryptThroughput } from './support/bcrypt-limit.js';
import { PASSWORD, startDemo, threadPoolSize } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type ClosedLoopResult, closedLoop, type Load } from './support/load.js';
import { settle } from './support/pause.js';
import { adminQuery } from './support/postgres.js';
import { ROUNDS, setting } from './support/settings.js';

const SECONDS = setting('BENCH_LOGIN_SECONDS', 6);
/**
 * Twice the thread pool: a login always waits behind each running bcrypt, so no thread idles while
 * another login talks to the database. More would stretch each login's latency towards the window
 * length (Little's law needs many latencies per window).
 */
const CONCURRENCY = 2 * Number(threadPoolSize());
/** Logins take their user's row lock to issue the session: a few users, in turn, so they seldom queue on it. */
const USERS = 4;

const demo = await startDemo({ AUTH_STRATEGY: 'session' });
try {
  const accounts = await Promise.all(Array.from({ length: USERS }, (_, index) => signUp(demo.baseUrl, `login-${index}@bench.test`, 'session')));
  const [{ password_hash: hash }] = await adminQuery<{ password_hash: string }>('SELECT password_hash FROM users LIMIT 1', demo.databaseUrl);
  const cost = bcrypt.getRounds(hash);
  let turn = 0;
  const login: Load = {
    url: `${demo.baseUrl}/auth/login`,
    headers: { 'content-type': 'application/json' },
    connections: CONCURRENCY,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: accounts[turn++ % USERS].email, password: PASSWORD }) }) }],
  };
  console.log(`session strategy, PostgreSQL, ${USERS} users, bcrypt cost ${cost}, UV_THREADPOOL_SIZE=${threadPoolSize()}, ${CONCURRENCY} concurrent logins/compares, ${ROUNDS} rounds x ${SECONDS} s`);
  await closedLoop(login, 2);
  await settle();
  const counted: Record<'login' | 'bcrypt', string[]> = { login: [], bcrypt: [] };
  const keep = (side: 'login' | 'bcrypt', result: ClosedLoopResult) => {
    counted[side].push(`${result.completed} in ${SECONDS} s`);
    return result.perSecondByLatency;
  };
  const rounds = await interleavedRounds({
    login: async () => {
      const result = await closedLoop(login, SECONDS);
      await settle();
      return keep('login', result);
    },
    bcrypt: async () => keep('bcrypt', await bcryptThroughput({ cost, concurrency: CONCURRENCY, seconds: SECONDS })),
  });
  publish([
    figureOf(
      'login-vs-bcrypt-limit',
      { atLeast: 0.9 },
      { label: 'POST /auth/login 200', unit: '/s', rounds: rounds.login },
      { label: `bcrypt.compare alone (cost ${cost})`, unit: '/s', rounds: rounds.bcrypt },
      `per second = ${CONCURRENCY} ÷ mean latency; completions counted per round: logins ${counted.login.join(', ')}; compares ${counted.bcrypt.join(', ')}`,
    ),
  ]);
} finally {
  await demo.stop();
}

// GET /auth/me with a session cookie vs the unguarded GET /bench/users/:id of the same demo process
// (the same user lookup by primary key, no authentication), PostgreSQL, interleaved rounds.
// Figure: session-me-vs-unguarded (target >= 0.85).
import { signUp } from './support/accounts.js';
import { startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;

const demo = await startDemo({ AUTH_STRATEGY: 'session' });
try {
  const account = await signUp(demo.baseUrl, 'session-me@bench.test', 'session');
  const me: Load = { url: `${demo.baseUrl}/auth/me`, headers: account.meHeaders, connections: CONNECTIONS };
  const unguarded: Load = { url: `${demo.baseUrl}/bench/users/${account.id}`, connections: CONNECTIONS };
  console.log(`session strategy, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SLICE_SECONDS} s per route`);
  await warmUp(me);
  await warmUp(unguarded);
  const rounds = await interleavedRounds({ me: () => throughput(me, SLICE_SECONDS), unguarded: () => throughput(unguarded, SLICE_SECONDS) });
  publish([
    figureOf(
      'session-me-vs-unguarded',
      { atLeast: 0.85 },
      { label: 'GET /auth/me (cookie)', unit: 'req/s', rounds: rounds.me },
      { label: 'GET /bench/users/:id', unit: 'req/s', rounds: rounds.unguarded },
    ),
  ]);
} finally {
  await demo.stop();
}

// The jwt strategy on PostgreSQL, one demo process, in interleaved rounds (jwt-me-vs-session-me, which
// compares two processes, is bench/jwt-vs-session.bench.ts):
// - GET /auth/me (bearer) vs the unguarded GET /bench/users/:id   -> jwt-me-vs-unguarded (>= 0.9)
// - GET /auth/me vs GET /bench/naive/me, the NestJS documentation's AuthGuard('jwt') with a string
//   secretOrKey and a TypeORM findOne in validate() (apps/demo/src/bench/)   -> jwt-me-vs-naive-passport (>= 2.0)
// Then, in rounds of their own (a refresh slice writes: rotations, commits, dead rows to vacuum, and
// the logins that start its chains; none of that may spill into the slices of the figures above):
// - POST /auth/refresh, one rotation chain per connection, vs GET /auth/me   -> refresh-vs-me (report only)
import { refreshCookies, signUp } from './support/accounts.js';
import { startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { refreshChains } from './support/refresh-chains.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;
/** One login (one bcrypt) per chain and slice: fewer chains than connections, enough to keep the database busy. */
const CHAINS = 8;

const demo = await startDemo({ AUTH_STRATEGY: 'jwt' });
try {
  const account = await signUp(demo.baseUrl, 'jwt-me@bench.test', 'jwt');
  const me: Load = { url: `${demo.baseUrl}/auth/me`, headers: account.meHeaders, connections: CONNECTIONS };
  const unguarded: Load = { url: `${demo.baseUrl}/bench/users/${account.id}`, connections: CONNECTIONS };
  const naive: Load = { url: `${demo.baseUrl}/bench/naive/me`, headers: account.meHeaders, connections: CONNECTIONS };
  // Fresh chains for every slice (logins, outside the timed window): a slice's end aborts requests
  // whose rotation may already be committed, which leaves their chains unusable.
  const refresh = async () => throughput(refreshChains(`${demo.baseUrl}/auth/refresh`, await refreshCookies(demo.baseUrl, account.email, CHAINS)), SLICE_SECONDS);
  console.log(`jwt strategy, PostgreSQL, ${CONNECTIONS} connections (refresh: ${CHAINS} chains), ${ROUNDS} rounds x ${SLICE_SECONDS} s per route`);
  for (const load of [me, unguarded, naive]) await warmUp(load);
  const rounds = await interleavedRounds({
    me: () => throughput(me, SLICE_SECONDS),
    unguarded: () => throughput(unguarded, SLICE_SECONDS),
    naive: () => throughput(naive, SLICE_SECONDS),
  });
  await refresh();
  const refreshRounds = await interleavedRounds({ me: () => throughput(me, SLICE_SECONDS), refresh });
  const jwtMe = { label: 'GET /auth/me (bearer)', unit: 'req/s', rounds: rounds.me };
  publish([
    figureOf('jwt-me-vs-unguarded', { atLeast: 0.9 }, jwtMe, { label: 'GET /bench/users/:id', unit: 'req/s', rounds: rounds.unguarded }),
    figureOf('jwt-me-vs-naive-passport', { atLeast: 2 }, jwtMe, { label: "AuthGuard('jwt') + findOne", unit: 'req/s', rounds: rounds.naive }),
    figureOf(
      'refresh-vs-me',
      'report only',
      { label: 'POST /auth/refresh (chains)', unit: 'req/s', rounds: refreshRounds.refresh },
      { label: 'GET /auth/me (bearer), same rounds', unit: 'req/s', rounds: refreshRounds.me },
    ),
  ]);
} finally {
  await demo.stop();
}

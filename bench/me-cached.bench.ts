// The principal cache on (AUTH_PRINCIPAL_CACHE=postgres: LISTEN/NOTIFY invalidation), PostgreSQL,
// one demo process per credential, every route in the same interleaved rounds:
// - GET /auth/me (session cookie, cached) vs the unguarded GET /bench/users/:id of its demo  -> me-cached-vs-unguarded-session (>= 1.5)
// - GET /auth/me (bearer, cached) vs the unguarded GET /bench/users/:id of its demo          -> me-cached-vs-unguarded-jwt (>= 1.5)
// The unguarded route reads the user from the database at every request; the cached /me reads it
// once per TTL (60 s by default) or revocation, and verifies the credential at every request.
import { signUp } from './support/accounts.js';
import { startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;

const sessionDemo = await startDemo({ AUTH_STRATEGY: 'session', AUTH_PRINCIPAL_CACHE: 'postgres' });
const jwtDemo = await startDemo({ AUTH_STRATEGY: 'jwt', AUTH_PRINCIPAL_CACHE: 'postgres' });
try {
  const session = await signUp(sessionDemo.baseUrl, 'me-cached@bench.test', 'session');
  const jwt = await signUp(jwtDemo.baseUrl, 'me-cached@bench.test', 'jwt');
  const loads: Record<'sessionMe' | 'sessionUnguarded' | 'jwtMe' | 'jwtUnguarded', Load> = {
    sessionMe: { url: `${sessionDemo.baseUrl}/auth/me`, headers: session.meHeaders, connections: CONNECTIONS },
    sessionUnguarded: { url: `${sessionDemo.baseUrl}/bench/users/${session.id}`, connections: CONNECTIONS },
    jwtMe: { url: `${jwtDemo.baseUrl}/auth/me`, headers: jwt.meHeaders, connections: CONNECTIONS },
    jwtUnguarded: { url: `${jwtDemo.baseUrl}/bench/users/${jwt.id}`, connections: CONNECTIONS },
  };
  console.log(`principal cache (postgres invalidation), PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SLICE_SECONDS} s per route`);
  for (const load of Object.values(loads)) await warmUp(load);
  const rounds = await interleavedRounds({
    sessionMe: () => throughput(loads.sessionMe, SLICE_SECONDS),
    sessionUnguarded: () => throughput(loads.sessionUnguarded, SLICE_SECONDS),
    jwtMe: () => throughput(loads.jwtMe, SLICE_SECONDS),
    jwtUnguarded: () => throughput(loads.jwtUnguarded, SLICE_SECONDS),
  });
  const unguarded = (values: number[]) => ({ label: 'GET /bench/users/:id', unit: 'req/s', rounds: values });
  publish([
    figureOf('me-cached-vs-unguarded-session', { atLeast: 1.5 }, { label: 'GET /auth/me (cookie, cached)', unit: 'req/s', rounds: rounds.sessionMe }, unguarded(rounds.sessionUnguarded)),
    figureOf('me-cached-vs-unguarded-jwt', { atLeast: 1.5 }, { label: 'GET /auth/me (bearer, cached)', unit: 'req/s', rounds: rounds.jwtMe }, unguarded(rounds.jwtUnguarded)),
  ]);
} finally {
  await jwtDemo.stop();
  await sessionDemo.stop();
}

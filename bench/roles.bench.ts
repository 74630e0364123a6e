// Roles and permissions (docs/guides/roles-and-permissions.md), session credential, PostgreSQL,
// interleaved rounds:
// - GET /auth/me of a user holding two roles, the bench app with a policy, vs the same /me of a
//   bench app without one                                                      -> me-with-roles-vs-me (>= 0.95)
// - an application route behind @Permissions vs one behind CurrentUserGuard alone,
//   in the app with the policy                                                 -> permissions-route-vs-guarded-route (>= 0.95)
import { signUp } from './support/accounts.js';
import { startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;

const withRoles = await startDemo({ AUTH_STRATEGY: 'session', BENCH_AUTHORIZATION: '1' });
const without = await startDemo({ AUTH_STRATEGY: 'session' });
try {
  const holder = await signUp(withRoles.baseUrl, 'roles@bench.test', 'session');
  const roles = ((await (await fetch(`${withRoles.baseUrl}/auth/me`, { headers: holder.meHeaders })).json()) as { roles?: string[] }).roles;
  if (roles?.length !== 2) throw new Error(`the bench user should hold two roles, holds ${JSON.stringify(roles)}`);
  const plain = await signUp(without.baseUrl, 'roles@bench.test', 'session');
  const loads: Record<'meWithRoles' | 'me' | 'permitted' | 'guarded', Load> = {
    meWithRoles: { url: `${withRoles.baseUrl}/auth/me`, headers: holder.meHeaders, connections: CONNECTIONS },
    me: { url: `${without.baseUrl}/auth/me`, headers: plain.meHeaders, connections: CONNECTIONS },
    permitted: { url: `${withRoles.baseUrl}/bench/access/permitted`, headers: holder.meHeaders, connections: CONNECTIONS },
    guarded: { url: `${withRoles.baseUrl}/bench/access/guarded`, headers: holder.meHeaders, connections: CONNECTIONS },
  };
  console.log(`roles and permissions, session strategy, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SLICE_SECONDS} s per route`);
  for (const load of Object.values(loads)) await warmUp(load);
  const rounds = await interleavedRounds({
    meWithRoles: () => throughput(loads.meWithRoles, SLICE_SECONDS),
    me: () => throughput(loads.me, SLICE_SECONDS),
    permitted: () => throughput(loads.permitted, SLICE_SECONDS),
    guarded: () => throughput(loads.guarded, SLICE_SECONDS),
  });
  publish([
    figureOf('me-with-roles-vs-me', { atLeast: 0.95 }, { label: 'GET /auth/me (policy, two roles)', unit: 'req/s', rounds: rounds.meWithRoles }, { label: 'GET /auth/me (no policy)', unit: 'req/s', rounds: rounds.me }),
    figureOf(
      'permissions-route-vs-guarded-route',
      { atLeast: 0.95 },
      { label: 'GET /bench/access/permitted (@Permissions)', unit: 'req/s', rounds: rounds.permitted },
      { label: 'GET /bench/access/guarded (CurrentUserGuard)', unit: 'req/s', rounds: rounds.guarded },
    ),
  ]);
} finally {
  await without.stop();
  await withRoles.stop();
}

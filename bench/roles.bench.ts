// Roles and permissions (docs/guides/roles-and-permissions.md), session credential, PostgreSQL:
// - GET /auth/me of a user holding two roles, in a bench app with a roles policy
//   (BENCH_AUTHORIZATION=1), vs the same /me in a bench app without one       -> me-with-roles-vs-me (>= 0.95)
// - an application route behind @Permissions vs one behind CurrentUserGuard alone,
//   both in the app with the policy                                            -> permissions-route-vs-guarded-route (>= 0.95)
// The first figure compares two processes, whose throughput moves by up to a tenth from one start to
// the next (bench/profile-notes.md): as jwt-vs-session does, every round starts a fresh pair and
// measures one slice of each route, in turns, then stops both.
import { signUp } from './support/accounts.js';
import { type BenchDemo, startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;
type Side = 'meWithRoles' | 'me' | 'permitted' | 'guarded';

/** A bench app with the policy (its user holding two roles) and one without, side by side, warmed up. */
async function startPair(): Promise<{ loads: Record<Side, Load>; stop(): Promise<void> }> {
  const demos: BenchDemo[] = [];
  const stop = async () => void (await Promise.all(demos.map((demo) => demo.stop())));
  try {
    demos.push(...(await Promise.all([startDemo({ AUTH_STRATEGY: 'session', BENCH_AUTHORIZATION: '1' }), startDemo({ AUTH_STRATEGY: 'session' })])));
    const [withRoles, without] = demos;
    const [holder, plain] = await Promise.all([signUp(withRoles.baseUrl, 'roles@bench.test', 'session'), signUp(without.baseUrl, 'roles@bench.test', 'session')]);
    const roles = ((await (await fetch(`${withRoles.baseUrl}/auth/me`, { headers: holder.meHeaders })).json()) as { roles?: string[] }).roles;
    if (roles?.length !== 2) throw new Error(`the bench user should hold two roles, holds ${JSON.stringify(roles)}`);
    const loads: Record<Side, Load> = {
      meWithRoles: { url: `${withRoles.baseUrl}/auth/me`, headers: holder.meHeaders, connections: CONNECTIONS },
      me: { url: `${without.baseUrl}/auth/me`, headers: plain.meHeaders, connections: CONNECTIONS },
      permitted: { url: `${withRoles.baseUrl}/bench/access/permitted`, headers: holder.meHeaders, connections: CONNECTIONS },
      guarded: { url: `${withRoles.baseUrl}/bench/access/guarded`, headers: holder.meHeaders, connections: CONNECTIONS },
    };
    for (const load of Object.values(loads)) await warmUp(load);
    return { loads, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

console.log(`roles and permissions, session strategy, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds, each on a fresh pair of bench app processes, ${SLICE_SECONDS} s per slice`);
const rounds: Record<Side, number[]> = { meWithRoles: [], me: [], permitted: [], guarded: [] };
for (let round = 0; round < ROUNDS; round++) {
  const pair = await startPair();
  try {
    const order: Side[] = round % 2 === 0 ? ['meWithRoles', 'me', 'permitted', 'guarded'] : ['guarded', 'permitted', 'me', 'meWithRoles'];
    for (const side of order) rounds[side].push(await throughput(pair.loads[side], SLICE_SECONDS));
  } finally {
    await pair.stop();
  }
}
publish([
  figureOf('me-with-roles-vs-me', { atLeast: 0.95 }, { label: 'GET /auth/me (policy, two roles)', unit: 'req/s', rounds: rounds.meWithRoles }, { label: 'GET /auth/me (no policy)', unit: 'req/s', rounds: rounds.me }),
  figureOf(
    'permissions-route-vs-guarded-route',
    { atLeast: 0.95 },
    { label: 'GET /bench/access/permitted (@Permissions)', unit: 'req/s', rounds: rounds.permitted },
    { label: 'GET /bench/access/guarded (CurrentUserGuard)', unit: 'req/s', rounds: rounds.guarded },
  ),
]);

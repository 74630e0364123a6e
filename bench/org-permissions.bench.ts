// Organizations (docs/guides/organizations.md), session credential, PostgreSQL: an application route
// behind @OrgPermissions (the demo's GET /org-projects, AUTH_ORGANIZATIONS=on) vs one behind
// CurrentUserGuard alone (GET /bench/access/guarded), in one bench app whose credential statement
// joins the active organization's membership for both        -> org-permissions-route-vs-guarded-route (>= 0.9)
// Both routes in the same process, in turns, on a fresh process each round (bench/profile-notes.md).
import { signUp } from './support/accounts.js';
import { type BenchDemo, post, startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;
type Side = 'orgPermitted' | 'guarded';

/** A bench app with organizations and the bench's roles policy, its user acting in an organization it owns. */
async function start(): Promise<{ loads: Record<Side, Load>; demo: BenchDemo }> {
  const demo = await startDemo({ AUTH_STRATEGY: 'session', BENCH_AUTHORIZATION: '1', AUTH_ORGANIZATIONS: 'on' });
  try {
    const owner = await signUp(demo.baseUrl, 'org@bench.test', 'session');
    const created = await post(`${demo.baseUrl}/auth/organizations`, { name: 'Bench', slug: 'bench' }, 201, owner.meHeaders);
    const { id } = (await created.json()) as { id: string };
    await post(`${demo.baseUrl}/auth/organizations/${id}/activate`, {}, 204, owner.meHeaders);
    const check = await fetch(`${demo.baseUrl}/org-projects`, { headers: owner.meHeaders });
    if (check.status !== 200) throw new Error(`GET /org-projects answered ${check.status}`);
    const loads: Record<Side, Load> = {
      orgPermitted: { url: `${demo.baseUrl}/org-projects`, headers: owner.meHeaders, connections: CONNECTIONS },
      guarded: { url: `${demo.baseUrl}/bench/access/guarded`, headers: owner.meHeaders, connections: CONNECTIONS },
    };
    for (const load of Object.values(loads)) await warmUp(load);
    return { loads, demo };
  } catch (error) {
    await demo.stop();
    throw error;
  }
}

console.log(`organization permissions, session strategy, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds, each on a fresh bench app process, ${SLICE_SECONDS} s per slice`);
const rounds: Record<Side, number[]> = { orgPermitted: [], guarded: [] };
for (let round = 0; round < ROUNDS; round++) {
  const { loads, demo } = await start();
  try {
    const order: Side[] = round % 2 === 0 ? ['orgPermitted', 'guarded'] : ['guarded', 'orgPermitted'];
    for (const side of order) rounds[side].push(await throughput(loads[side], SLICE_SECONDS));
  } finally {
    await demo.stop();
  }
}
publish([
  figureOf(
    'org-permissions-route-vs-guarded-route',
    { atLeast: 0.9 },
    { label: 'GET /org-projects (@OrgPermissions)', unit: 'req/s', rounds: rounds.orgPermitted },
    { label: 'GET /bench/access/guarded (CurrentUserGuard)', unit: 'req/s', rounds: rounds.guarded },
  ),
]);

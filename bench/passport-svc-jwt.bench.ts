// A second service (bench/app/resource-server.main.ts, no database) accepting svc's EdDSA access
// tokens with svc/passport's AuthGuard('svc-jwt'), against the same service's unguarded route, in
// interleaved rounds                                                   -> passport-svc-jwt-vs-unguarded (>= 0.8)
// The key set is fetched once and cached, and a token verified once is remembered by its digest, so
// the figure is what Passport, the guard and the memo's lookup cost a small route.
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { runDemo } from '../apps/demo/test/demo/demo-process.js';
import { reserveLoopbackPort } from '../test/support/listen.js';
import { signUp } from './support/accounts.js';
import { startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;
const KEYS = JSON.stringify([{ kid: 'bench', privateKey: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }]);
const RESOURCE_SERVER = fileURLToPath(new URL('../dist/bench/app/resource-server.main.js', import.meta.url));

const demo = await startDemo({ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: KEYS });
try {
  const port = await reserveLoopbackPort();
  // The demo's tokens name its AUTH_BASE_URL, by default http://localhost:<PORT>.
  const issuer = `http://localhost:${new URL(demo.baseUrl).port}`;
  const resource = await runDemo({ PORT: String(port), SVC_JWKS_URL: `${demo.baseUrl}/auth/jwks`, SVC_ISSUER: issuer }, RESOURCE_SERVER);
  if ('exitCode' in resource) throw new Error(`the resource server exited (${resource.exitCode}): ${resource.stderr}`);
  try {
    const account = await signUp(demo.baseUrl, 'resource@bench.test', 'jwt');
    const guarded: Load = { url: `${resource.baseUrl}/orders`, headers: account.meHeaders, connections: CONNECTIONS };
    const open: Load = { url: `${resource.baseUrl}/open`, connections: CONNECTIONS };
    // The same request, token and all, through a guard that only says yes: what Nest's guard step costs without Passport.
    const openDoor: Load = { url: `${resource.baseUrl}/open-door`, headers: account.meHeaders, connections: CONNECTIONS };
    const check = await fetch(guarded.url, { headers: account.meHeaders });
    if (check.status !== 200) throw new Error(`GET /orders answered ${check.status}`);
    console.log(`svc/passport AuthGuard('svc-jwt') against an unguarded route of the same service, ${CONNECTIONS} connections, ${SLICE_SECONDS} s per slice`);
    for (const load of [guarded, open, openDoor]) await warmUp(load);
    const rounds = await interleavedRounds({ guarded: () => throughput(guarded, SLICE_SECONDS), open: () => throughput(open, SLICE_SECONDS), openDoor: () => throughput(openDoor, SLICE_SECONDS) });
    publish([
      figureOf(
        'passport-svc-jwt-vs-unguarded',
        { atLeast: 0.8 },
        { label: "GET /orders, AuthGuard('svc-jwt') (EdDSA)", unit: 'req/s', rounds: rounds.guarded },
        { label: 'GET /open, unguarded', unit: 'req/s', rounds: rounds.open },
      ),
      // Informative, no target: how much of the figure above is any guard's, and how much Passport's.
      figureOf('open-door-guard-vs-unguarded', 'report only', { label: 'GET /open-door, a guard that says yes', unit: 'req/s', rounds: rounds.openDoor }, { label: 'GET /open, unguarded', unit: 'req/s', rounds: rounds.open }),
      figureOf('passport-svc-jwt-vs-open-door-guard', 'report only', { label: "GET /orders, AuthGuard('svc-jwt') (EdDSA)", unit: 'req/s', rounds: rounds.guarded }, { label: 'GET /open-door, a guard that says yes', unit: 'req/s', rounds: rounds.openDoor }),
    ]);
  } finally {
    await resource.stop();
  }
} finally {
  await demo.stop();
}

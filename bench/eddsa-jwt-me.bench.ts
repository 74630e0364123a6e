// GET /auth/me of the jwt credential with EdDSA access tokens (AUTH_JWT_ALG=EdDSA, a fixed key) against
// the same with HMAC (HS256, the default), each bench app in its own process on its own PostgreSQL
// database, a fresh pair every round as in jwt-vs-session                -> eddsa-jwt-me-vs-hs256-jwt-me (>= 0.9)
// A token verified once is remembered by its digest (docs/decisions/0012-access-tokens-jwt.md), so the
// signature's cost shows only at a token's first use; the figure says that /me costs the same after it.
import { generateKeyPairSync } from 'node:crypto';
import { signUp } from './support/accounts.js';
import { type BenchDemo, startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;
const KEYS = JSON.stringify([{ kid: 'bench', privateKey: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }]);

interface Pair {
  eddsa: Load;
  hs256: Load;
  stop(): Promise<void>;
}

async function startPair(): Promise<Pair> {
  const demos: BenchDemo[] = [];
  const stop = async () => void (await Promise.all(demos.map((demo) => demo.stop())));
  try {
    demos.push(...(await Promise.all([startDemo({ AUTH_STRATEGY: 'jwt', AUTH_JWT_ALG: 'EdDSA', AUTH_JWT_KEYS: KEYS }), startDemo({ AUTH_STRATEGY: 'jwt' })])));
    const [eddsaDemo, hs256Demo] = demos;
    const [eddsaAccount, hs256Account] = await Promise.all([signUp(eddsaDemo.baseUrl, 'eddsa@bench.test', 'jwt'), signUp(hs256Demo.baseUrl, 'hs256@bench.test', 'jwt')]);
    const eddsa: Load = { url: `${eddsaDemo.baseUrl}/auth/me`, headers: eddsaAccount.meHeaders, connections: CONNECTIONS };
    const hs256: Load = { url: `${hs256Demo.baseUrl}/auth/me`, headers: hs256Account.meHeaders, connections: CONNECTIONS };
    await warmUp(eddsa);
    await warmUp(hs256);
    return { eddsa, hs256, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

console.log(`EdDSA against HS256 jwt GET /auth/me, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds, each on a fresh pair of bench app processes, ${SLICE_SECONDS} s per slice`);
const eddsaRounds: number[] = [];
const hs256Rounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const pair = await startPair();
  try {
    const order = round % 2 === 0 ? (['eddsa', 'hs256'] as const) : (['hs256', 'eddsa'] as const);
    const measured: Record<'eddsa' | 'hs256', number> = { eddsa: 0, hs256: 0 };
    for (const side of order) measured[side] = await throughput(pair[side], SLICE_SECONDS);
    eddsaRounds.push(measured.eddsa);
    hs256Rounds.push(measured.hs256);
  } finally {
    await pair.stop();
  }
}
publish([
  figureOf(
    'eddsa-jwt-me-vs-hs256-jwt-me',
    { atLeast: 0.9 },
    { label: 'GET /auth/me (EdDSA bearer)', unit: 'req/s', rounds: eddsaRounds },
    { label: 'GET /auth/me (HS256 bearer)', unit: 'req/s', rounds: hs256Rounds },
  ),
]);

// GET /auth/me of the jwt strategy (bearer) against the session strategy's (cookie), each demo in its
// own process on its own PostgreSQL database, serving nothing but its /auth/me
//                                                                -> jwt-me-vs-session-me (>= 1.0)
// The two sides are two processes, so a figure from one pair of them says as much about that pair
// as about the two paths: a process's throughput moved by up to a tenth from one start to the next
// on this machine, for the same build (bench/profile-notes.md). So every round starts a fresh pair,
// measures one slice of each (in turns: jwt first, then session first), and stops both; the figure
// is the median over the rounds, as for every other figure, but over as many pairs as rounds.
import { signUp } from './support/accounts.js';
import { type BenchDemo, startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;

interface Pair {
  jwt: Load;
  session: Load;
  stop(): Promise<void>;
}

/** A jwt demo and a session demo, started side by side, each with one signed-up user and warmed up. */
async function startPair(): Promise<Pair> {
  const demos: BenchDemo[] = [];
  const stop = async () => void (await Promise.all(demos.map((demo) => demo.stop())));
  try {
    demos.push(...(await Promise.all([startDemo({ AUTH_STRATEGY: 'jwt' }), startDemo({ AUTH_STRATEGY: 'session' })])));
    const [jwtDemo, sessionDemo] = demos;
    const [jwtAccount, sessionAccount] = await Promise.all([signUp(jwtDemo.baseUrl, 'jwt-me@bench.test', 'jwt'), signUp(sessionDemo.baseUrl, 'session-me@bench.test', 'session')]);
    const jwt: Load = { url: `${jwtDemo.baseUrl}/auth/me`, headers: jwtAccount.meHeaders, connections: CONNECTIONS };
    const session: Load = { url: `${sessionDemo.baseUrl}/auth/me`, headers: sessionAccount.meHeaders, connections: CONNECTIONS };
    await warmUp(jwt);
    await warmUp(session);
    return { jwt, session, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

console.log(`jwt against session GET /auth/me, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds, each on a fresh pair of demo processes, ${SLICE_SECONDS} s per slice`);
const jwtRounds: number[] = [];
const sessionRounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const pair = await startPair();
  try {
    const order = round % 2 === 0 ? (['jwt', 'session'] as const) : (['session', 'jwt'] as const);
    const measured: Record<'jwt' | 'session', number> = { jwt: 0, session: 0 };
    for (const side of order) measured[side] = await throughput(pair[side], SLICE_SECONDS);
    jwtRounds.push(measured.jwt);
    sessionRounds.push(measured.session);
  } finally {
    await pair.stop();
  }
}
publish([
  figureOf(
    'jwt-me-vs-session-me',
    { atLeast: 1 },
    { label: 'GET /auth/me (bearer)', unit: 'req/s', rounds: jwtRounds },
    { label: 'GET /auth/me (session cookie)', unit: 'req/s', rounds: sessionRounds },
  ),
]);

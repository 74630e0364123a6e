// What the activity log costs a login (docs/guides/account-security.md): successful POST /auth/login
// per second against the bench app with the log on (the demo's default) and with AUTH_AUDIT=off, each
// in its own process on its own PostgreSQL database, same users, same concurrency, interleaved. The
// log adds a read of the user's recent logins (the new_device check) and one INSERT to the login's
// transaction, beside ~200 ms of bcrypt.
// Figure: login-with-audit-vs-login (target >= 0.95).
import { signUp } from './support/accounts.js';
import { PASSWORD, startDemo, threadPoolSize } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { closedLoop, type Load } from './support/load.js';
import { settle } from './support/pause.js';
import { setting } from './support/settings.js';

const SECONDS = setting('BENCH_LOGIN_SECONDS', 6);
/** Twice the thread pool, as the login bench: no libuv thread idles while a login talks to the database. */
const CONCURRENCY = 2 * Number(threadPoolSize());
const USERS = 4;

async function loginLoad(audit: 'on' | 'off') {
  const demo = await startDemo({ AUTH_STRATEGY: 'session', AUTH_AUDIT: audit });
  const accounts = await Promise.all(Array.from({ length: USERS }, (_, index) => signUp(demo.baseUrl, `login-${index}@bench.test`, 'session')));
  let turn = 0;
  const load: Load = {
    url: `${demo.baseUrl}/auth/login`,
    headers: { 'content-type': 'application/json' },
    connections: CONCURRENCY,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: accounts[turn++ % USERS].email, password: PASSWORD }) }) }],
  };
  return { demo, load };
}

const withAudit = await loginLoad('on');
const without = await loginLoad('off');
try {
  console.log(`session strategy, PostgreSQL, ${USERS} users, ${CONCURRENCY} concurrent logins, activity log on vs AUTH_AUDIT=off`);
  await closedLoop(withAudit.load, 2);
  await closedLoop(without.load, 2);
  await settle();
  const slice = async (side: typeof withAudit) => {
    const result = await closedLoop(side.load, SECONDS);
    if (result.completed === 0) throw new Error('no login completed');
    await settle();
    return result.perSecondByLatency;
  };
  const rounds = await interleavedRounds({ audit: () => slice(withAudit), plain: () => slice(without) });
  publish([
    figureOf(
      'login-with-audit-vs-login',
      { atLeast: 0.95 },
      { label: 'POST /auth/login 200, activity log on', unit: '/s', rounds: rounds.audit },
      { label: 'POST /auth/login 200, AUTH_AUDIT=off', unit: '/s', rounds: rounds.plain },
      `per second = ${CONCURRENCY} ÷ mean latency`,
    ),
  ]);
} finally {
  await withAudit.demo.stop();
  await without.demo.stop();
}

// GET /auth/me with an API key (Authorization: Bearer svc_...) vs with a session cookie, both on the
// same session demo process (AUTH_API_KEYS=on) and the same user, PostgreSQL, interleaved rounds.
// Figure: api-key-me-vs-session-me (target >= 0.9). Both are one indexed lookup joined with the user
// and its roles; the key's last_used_at is written at most once a minute, the session's last_seen_at
// at most every five.
import { signUp } from './support/accounts.js';
import { post, startDemo } from './support/demo.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { type Load, throughput, warmUp } from './support/load.js';
import { ROUNDS, SLICE_SECONDS } from './support/settings.js';

const CONNECTIONS = 16;

const demo = await startDemo({ AUTH_STRATEGY: 'session', AUTH_API_KEYS: 'on' });
try {
  const account = await signUp(demo.baseUrl, 'api-key-me@bench.test', 'session');
  const created = await post(`${demo.baseUrl}/auth/api-keys`, { name: 'bench' }, 201, account.meHeaders);
  const { key } = (await created.json()) as { key: string };
  const withKey: Load = { url: `${demo.baseUrl}/auth/me`, headers: { authorization: `Bearer ${key}` }, connections: CONNECTIONS };
  const withCookie: Load = { url: `${demo.baseUrl}/auth/me`, headers: account.meHeaders, connections: CONNECTIONS };
  console.log(`session demo with API keys, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SLICE_SECONDS} s per credential`);
  await warmUp(withKey);
  await warmUp(withCookie);
  const rounds = await interleavedRounds({ key: () => throughput(withKey, SLICE_SECONDS), cookie: () => throughput(withCookie, SLICE_SECONDS) });
  publish([
    figureOf(
      'api-key-me-vs-session-me',
      { atLeast: 0.9 },
      { label: 'GET /auth/me (API key)', unit: 'req/s', rounds: rounds.key },
      { label: 'GET /auth/me (session cookie)', unit: 'req/s', rounds: rounds.cookie },
    ),
  ]);
} finally {
  await demo.stop();
}

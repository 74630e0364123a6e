// GET /auth/me/activity's work on PostgreSQL (docs/guides/account-security.md): a user's 20 newest
// entries in a table of a million entries against one of a thousand, in interleaved rounds. The
// user has 500 entries on both sides; the others belong to other users. The read is ActivityReader,
// the route's work without HTTP (the same guard and serialization on both sides would only dilute
// the figure): it must stay an index range on (user_id, at, id), whatever the table's size.
// Figure: activity-1m-vs-1k (>= 0.8).
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { ActivityReader } from '../libs/auth/src/audit/activity-reader.js';
import { type AuthTestApp, createAuthTestApp } from '../libs/auth/src/testing/index.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { adminQuery, freshPostgres } from './support/postgres.js';
import { SLICE_SECONDS } from './support/settings.js';

const CONCURRENCY = 8;
const PAGE = 20;
const OWN = 500;
const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';

interface Side {
  app: AuthTestApp;
  reader: ActivityReader;
  userId: string;
  drop(): Promise<void>;
}

/** A database of `entries` entries, `OWN` of them the user's, spread over a year, migrated by svc and analysed. */
async function side(entries: number): Promise<Side> {
  const database = await freshPostgres();
  const app = await createAuthTestApp({
    database: { type: 'postgres', url: database.url, poolSize: CONCURRENCY + 2, logging: false },
    options: { secret: SECRET, audit: {}, password: { sendsResetMail: false } },
  });
  const userId = randomUUID();
  const others = entries - OWN;
  // Other users: a thousand of them, each entry at its own instant of the last year.
  await adminQuery(
    `INSERT INTO auth_audit_events (id, at, user_id, action, ip, user_agent, details)
     SELECT gen_random_uuid(), now() - n * interval '31 seconds', ('00000000-0000-4000-8000-' || lpad((n % 1000)::text, 12, '0'))::uuid,
            (ARRAY['login', 'logout', 'login_failed', 'password_changed'])[1 + n % 4], '203.0.113.0', 'Mozilla/5.0 bench', '{}'
     FROM generate_series(1, ${others}) n`,
    database.url,
  );
  await adminQuery(
    `INSERT INTO auth_audit_events (id, at, user_id, action, ip, user_agent, details)
     SELECT gen_random_uuid(), now() - n * interval '17 minutes', '${userId}', 'login', '198.51.100.0', 'Mozilla/5.0 bench', '{"method":"password"}'
     FROM generate_series(1, ${OWN}) n`,
    database.url,
  );
  await adminQuery('ANALYZE auth_audit_events', database.url);
  return { app, reader: app.app.get(ActivityReader), userId, drop: async () => (await app.close(), await database.drop()) };
}

/** Pages a second, `CONCURRENCY` at a time, for `seconds`; each must be a full page. */
async function pagesPerSecond({ reader, userId }: Side, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let pages = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const page = await reader.ofUser(userId, PAGE);
      if (page.length !== PAGE) throw new Error('a page of the activity came back short');
      pages += 1;
    }
  };
  const began = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return pages / ((Date.now() - began) / 1000);
}

const big = await side(1_000_000);
const small = await side(1_000);
try {
  console.log(`GET /auth/me/activity's read, PostgreSQL, ${PAGE} newest of a user's ${OWN} entries, ${CONCURRENCY} at a time`);
  await pagesPerSecond(big, 1);
  await pagesPerSecond(small, 1);
  const rounds = await interleavedRounds({ big: () => pagesPerSecond(big, SLICE_SECONDS), small: () => pagesPerSecond(small, SLICE_SECONDS) });
  publish([
    figureOf(
      'activity-1m-vs-1k',
      { atLeast: 0.8 },
      { label: 'a page of the activity, 1,000,000 entries', unit: 'pages/s', rounds: rounds.big },
      { label: 'a page of the activity, 1,000 entries', unit: 'pages/s', rounds: rounds.small },
    ),
  ]);
} finally {
  await small.drop();
  await big.drop();
}

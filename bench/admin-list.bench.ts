// The administration's user list (docs/guides/administration.md) on PostgreSQL: one page (20 users)
// searched by an email prefix and deep in the cursor, on a table of a million users against one of
// ten thousand, in interleaved rounds. The page is AuthService.listUsers, the route's work without
// HTTP (the same guard and serialization on both sides would only dilute the figure): its statement
// must be an index range from the cursor, never an OFFSET or a scan of the matches.
// Figure: admin-list-1m-vs-10k (>= 0.8).
// Run: node --conditions=source --import ./bench/ts-register.mjs bench/admin-list.bench.ts
import 'reflect-metadata';
import { AuthService } from '../libs/auth/src/auth.service.js';
import { AUTH_CONFIG } from '../libs/auth/src/config/auth.constants.js';
import type { AuthConfig } from '../libs/auth/src/config/auth-config.js';
import { UserListCursor } from '../libs/auth/src/admin/user-list-cursor.js';
import { type AuthTestApp, createAuthTestApp } from '../libs/auth/src/testing/index.js';
import { figureOf, publish } from './support/figures.js';
import { interleavedRounds } from './support/interleave.js';
import { adminQuery, freshPostgres } from './support/postgres.js';
import { SLICE_SECONDS } from './support/settings.js';

/** Pages asked for at once: a few administrators' screens, and the pool kept busy. */
const CONCURRENCY = 8;
const PAGE = 20;
/** Every `user00…` address: a tenth of the million, all of the ten thousand. */
const PREFIX = 'user00';
const SECRET = 'Zr4p9WqL2vX8nT6yB1cM5kD7hF3sJ0gA';

interface Side {
  app: AuthTestApp;
  auth: AuthService;
  /** The cursor of the page halfway through the prefix's matches. */
  cursor: string;
  drop(): Promise<void>;
}

/** A database of `users` users, `user0000001@bench.test` newest, migrated by svc and analysed. */
async function side(users: number): Promise<Side> {
  const database = await freshPostgres();
  const app = await createAuthTestApp({
    database: { type: 'postgres', url: database.url, poolSize: CONCURRENCY + 2, logging: false },
    options: { secret: SECRET, authorization: { roles: { admin: ['users:*'] } }, admin: {}, password: { sendsResetMail: false } },
  });
  await adminQuery(
    `INSERT INTO users (id, email, created_at, updated_at) SELECT gen_random_uuid(), 'user' || lpad(n::text, 7, '0') || '@bench.test', now() - n * interval '1 second', now() FROM generate_series(1, ${users}) n`,
    database.url,
  );
  await adminQuery('ANALYZE users', database.url);
  const matches = Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM users WHERE email LIKE '${PREFIX}%'`, database.url))[0].n);
  const [middle] = await adminQuery<{ created_at: string; id: string }>(
    `SELECT created_at::text AS created_at, id FROM users WHERE email LIKE '${PREFIX}%' ORDER BY created_at DESC, id DESC OFFSET ${Math.floor(matches / 2)} LIMIT 1`,
    database.url,
  );
  const cursor = new UserListCursor(app.app.get<AuthConfig>(AUTH_CONFIG).admin!.cursorKey).issue({ createdAt: middle.created_at, id: middle.id }, PREFIX);
  return { app, auth: app.app.get(AuthService), cursor, drop: async () => (await app.close(), await database.drop()) };
}

/** Pages a second, `CONCURRENCY` at a time, for `seconds`; each must be a full page. */
async function pagesPerSecond({ auth, cursor }: Side, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let pages = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const page = await auth.listUsers({ query: PREFIX, limit: PAGE, cursor });
      if (page.users.length !== PAGE || page.nextCursor === null) throw new Error('a page deep in the list came back short');
      pages += 1;
    }
  };
  const began = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return pages / ((Date.now() - began) / 1000);
}

const big = await side(1_000_000);
const small = await side(10_000);
try {
  console.log(`user list, PostgreSQL, prefix "${PREFIX}", a page of ${PAGE} halfway through the matches, ${CONCURRENCY} at a time`);
  await pagesPerSecond(big, 1);
  await pagesPerSecond(small, 1);
  const rounds = await interleavedRounds({ big: () => pagesPerSecond(big, SLICE_SECONDS), small: () => pagesPerSecond(small, SLICE_SECONDS) });
  publish([
    figureOf(
      'admin-list-1m-vs-10k',
      { atLeast: 0.8 },
      { label: 'a page of 1,000,000 users (prefix, deep cursor)', unit: 'pages/s', rounds: rounds.big },
      { label: 'a page of 10,000 users (prefix, deep cursor)', unit: 'pages/s', rounds: rounds.small },
    ),
  ]);
} finally {
  await small.drop();
  await big.drop();
}

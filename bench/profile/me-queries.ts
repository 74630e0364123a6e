// What the database does for one jwt and one session GET /auth/me: both demos (built) on their
// own databases, one account each; prints each response's headers and body size, the plan of each
// statement, and its mean latency over N serial executions as a named prepared statement.
// Run (after npm run build): node --conditions=source --import ./bench/ts-register.mjs bench/profile/me-queries.ts
import { createHash } from 'node:crypto';
import pg from 'pg';
import { signUp } from '../support/accounts.js';
import { startDemo } from '../support/demo.js';

const N = Number(process.env.QUERY_RUNS ?? 3000);

async function userColumns(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'users' ORDER BY ordinal_position`);
  return rows.map(({ column_name }) => `u."${column_name}" AS "u_${column_name}"`).join(', ');
}

async function timed(client: pg.Client, name: string, text: string, values: unknown[]): Promise<string> {
  for (let i = 0; i < 200; i++) await client.query({ name, text, values });
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await client.query({ name, text, values });
  const us = Number(process.hrtime.bigint() - start) / 1000 / N;
  const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY ON) ${text}`, values);
  // PostgreSQL 14+: whether the named statement went on with a generic plan or planned every execution again.
  const cache = await client.query(`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1`, [name]);
  return `${us.toFixed(1)} µs a query (serial, ${N} runs), plans ${JSON.stringify(cache.rows[0])}\n${plan.rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n')}`;
}

const jwt = await startDemo({ AUTH_STRATEGY: 'jwt' });
const session = await startDemo({ AUTH_STRATEGY: 'session' });
try {
  const jwtAccount = await signUp(jwt.baseUrl, 'jwt-me@bench.test', 'jwt');
  const sessionAccount = await signUp(session.baseUrl, 'session-me@bench.test', 'session');
  for (const [name, url, headers] of [['jwt', jwt.baseUrl, jwtAccount.meHeaders], ['session', session.baseUrl, sessionAccount.meHeaders]] as const) {
    const response = await fetch(`${url}/auth/me`, { headers });
    const body = await response.text();
    console.log(`\n${name} GET /auth/me: ${response.status}, body ${body.length} bytes, request header ${Object.values(headers)[0].length} bytes`);
    for (const [header, value] of response.headers) console.log(`  ${header}: ${value}`);
  }
  const claims = JSON.parse(Buffer.from(jwtAccount.meHeaders.authorization.split('.')[1], 'base64url').toString()) as { sub: string; sid: string };
  const jwtClient = new pg.Client({ connectionString: jwt.databaseUrl });
  const sessionClient = new pg.Client({ connectionString: session.databaseUrl });
  await jwtClient.connect();
  await sessionClient.connect();
  const jwtSql = `SELECT ${await userColumns(jwtClient)}, f.expires_at AS f_expires_at FROM "users" u INNER JOIN "refresh_families" f ON f.user_id = u.id WHERE u.id = $1 AND f.id = $2 AND f.revoked_at IS NULL AND f.expires_at > $3 AND NOT EXISTS (SELECT 1 FROM "refresh_tokens" r WHERE r.family_id = f.id AND r.revoked_at IS NOT NULL)`;
  const sessionSql = `SELECT ${await userColumns(sessionClient)}, s.* FROM "sessions" s INNER JOIN "users" u ON u.id = s.user_id WHERE s.token_hash = $1`;
  const tokenHash = createHash('sha256').update(decodeURIComponent(sessionAccount.meHeaders.cookie.split('=')[1])).digest('hex');
  const variants: Record<string, string> = { ...Object.fromEntries((process.env.QUERY_VARIANTS ?? '').split(';').filter(Boolean).map((sql, i) => [`variant_${i}`, sql])) };
  for (let round = 0; round < 2; round++) {
    console.log(`\njwt statement: ${await timed(jwtClient, 'jwt_me', jwtSql, [claims.sub, claims.sid, new Date()])}`);
    console.log(`\nsession statement: ${await timed(sessionClient, 'session_me', sessionSql, [tokenHash])}`);
    for (const [name, sql] of Object.entries(variants)) console.log(`\n${name}: ${sql}\n${await timed(jwtClient, name, sql.replace('USER_COLUMNS', await userColumns(jwtClient)), [claims.sub, claims.sid, new Date()])}`);
  }
  await jwtClient.end();
  await sessionClient.end();
} finally {
  await session.stop();
  await jwt.stop();
}

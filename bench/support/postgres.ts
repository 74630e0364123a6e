import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';

export async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, connectionString = ADMIN): Promise<R[]> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database, and how to drop it. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => void (await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

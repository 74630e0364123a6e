/** The test server's maintenance database, where databases are created and dropped. */
export const POSTGRES_ADMIN = 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of database `name` on the test server. */
export function postgresUrl(name: string): string {
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

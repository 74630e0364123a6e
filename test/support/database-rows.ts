import type { DataSource } from 'typeorm';

/** Every table a request of the library may write (docs/decisions/0002-schema.md), except the rate limiter's counters. */
export const CREDENTIAL_TABLES = ['users', 'sessions', 'refresh_tokens', 'password_reset_tokens', 'oauth_accounts', 'mfa_totp', 'mfa_recovery_codes', 'passkeys'] as const;

/** The key a table's rows are ordered by, where it is not `id`. */
const ORDER_KEYS: Partial<Record<(typeof CREDENTIAL_TABLES)[number], string>> = { mfa_totp: 'user_id' };

export type DatabaseRows = Record<(typeof CREDENTIAL_TABLES)[number], Record<string, unknown>[]>;

/**
 * All rows of the credential tables, in a stable order, as plain JSON values (comparable with toEqual,
 * with another snapshot of the same engine). PostgreSQL gives them in one statement (JSON as it renders
 * the values), SQLite table by table.
 */
export async function credentialRows(dataSource: DataSource): Promise<DatabaseRows> {
  if (dataSource.options.type === 'postgres') {
    const members = CREDENTIAL_TABLES.map((table) => `'${table}', (SELECT coalesce(json_agg(t ORDER BY t.${ORDER_KEYS[table] ?? 'id'}), '[]'::json) FROM ${table} t)`);
    const [{ rows }] = (await dataSource.query(`SELECT json_build_object(${members.join(', ')}) AS rows`)) as { rows: DatabaseRows }[];
    return rows;
  }
  const rows = {} as DatabaseRows;
  for (const table of CREDENTIAL_TABLES) {
    const found: Record<string, unknown>[] = await dataSource.query(`SELECT * FROM ${table} ORDER BY ${ORDER_KEYS[table] ?? 'id'}`);
    rows[table] = JSON.parse(JSON.stringify(found));
  }
  return rows;
}

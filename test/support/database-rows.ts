import type { DataSource } from 'typeorm';

/** Every table a request of the library may write (README, "Schema"), except the rate limiter's counters. */
export const CREDENTIAL_TABLES = ['users', 'sessions', 'refresh_tokens', 'password_reset_tokens', 'oauth_accounts', 'mfa_totp', 'mfa_recovery_codes', 'passkeys'] as const;

/** The key a table's rows are ordered by, where it is not `id`. */
const ORDER_KEYS: Partial<Record<(typeof CREDENTIAL_TABLES)[number], string>> = { mfa_totp: 'user_id' };

export type DatabaseRows = Record<(typeof CREDENTIAL_TABLES)[number], Record<string, unknown>[]>;

/** All rows of the credential tables, in a stable order, as plain JSON values (comparable with toEqual). */
export async function credentialRows(dataSource: DataSource): Promise<DatabaseRows> {
  const rows = {} as DatabaseRows;
  for (const table of CREDENTIAL_TABLES) {
    const found: Record<string, unknown>[] = await dataSource.query(`SELECT * FROM ${table} ORDER BY ${ORDER_KEYS[table] ?? 'id'}`);
    rows[table] = JSON.parse(JSON.stringify(found));
  }
  return rows;
}

/** A unique constraint refused an insert: PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } })?.driverError ?? (error as { code?: string });
  return driverError?.code === '23505' || driverError?.code === 'SQLITE_CONSTRAINT_UNIQUE' || driverError?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** Column definitions that mean the same on PostgreSQL and SQLite. */
export function columnTypes(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.options.type === 'postgres';
  const now = postgres ? 'now()' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))";
  return {
    uuid: (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type: postgres ? 'uuid' : 'varchar',
      length: postgres ? undefined : '36',
      ...extra,
    }),
    text: (name: string, length: number, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...extra,
    }),
    timestamp: (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type: postgres ? 'timestamptz' : 'datetime',
      ...extra,
    }),
    createdAt: (name = 'created_at'): TableColumnOptions => ({
      name,
      type: postgres ? 'timestamptz' : 'datetime',
      default: now,
    }),
  };
}

import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/**
 * Runs a statement of the per-request hot path. On PostgreSQL it is a named prepared statement,
 * parsed and planned once per connection instead of at every request (the name is derived from
 * the text, so two statements never share one). SQLite's driver already caches its statements.
 * Behind a transaction-mode pooler (PgBouncer) named statements need its prepared-statement support.
 */
export async function preparedQuery(manager: EntityManager, sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]> {
  if (manager.connection.options.type !== 'postgres') return manager.query(sql, parameters);
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    // Reported to TypeORM's logger like any query it runs itself.
    manager.connection.logger.logQuery(sql, parameters, runner);
    const client = (await runner.connect()) as { query(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }> };
    const result = await client.query({ name: statementName(sql), text: sql, values: parameters });
    return result.rows;
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

/** The library's few hot statements, each named once (a fixed set of texts: it cannot grow). */
const statementNames = new Map<string, string>();

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `svc_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

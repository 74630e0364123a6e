import pg from 'pg';

/**
 * An administrator's direct connection to the test database, to stop a request inside its
 * transaction and kill its connection: a trigger makes the chosen statement wait on an advisory
 * lock this connection holds, the waiting backend is found in pg_stat_activity and terminated.
 */
export class PostgresSaboteur {
  private constructor(private readonly client: pg.Client) {}

  static async connect(database: string): Promise<PostgresSaboteur> {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}` });
    await client.connect();
    return new PostgresSaboteur(client);
  }

  /** Holds the lock `key` and makes every `event` on `table` wait for it, inside the writer's transaction. */
  async blockWrites(table: string, event: 'INSERT' | 'UPDATE', key: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_lock($1)', [key]);
    await this.client.query(`CREATE OR REPLACE FUNCTION svc_fault_wait() RETURNS trigger AS $$ BEGIN PERFORM pg_advisory_xact_lock(${key}); RETURN NEW; END $$ LANGUAGE plpgsql`);
    await this.client.query(`CREATE TRIGGER svc_fault_wait BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION svc_fault_wait()`);
  }

  /**
   * Lets go of the lock, then drops the trigger of `blockWrites`. In this order: the waiting writer
   * holds a lock on `table` until its transaction ends, so dropping the trigger first would wait for
   * it while it waits for this lock (a deadlock PostgreSQL breaks by failing one side, either one).
   */
  async unblock(table: string, key: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_unlock($1)', [key]);
    await this.client.query(`DROP TRIGGER IF EXISTS svc_fault_wait ON ${table}`);
  }

  /**
   * The backend that waits on an advisory lock in this database, and the statement it runs (waits up to 10 s).
   * Seen waiting twice with the same statement: pg_stat_activity copies a backend's statement before it
   * reads the backend's wait event, so one read can pair the statement before with the wait of the next.
   */
  async waitingBackend(): Promise<{ pid: number; query: string }> {
    const deadline = Date.now() + 10_000;
    let seen: { pid: number; query: string } | undefined;
    for (;;) {
      const { rows } = await this.client.query(
        `SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory' AND pid <> pg_backend_pid()`,
      );
      if (rows.length > 1) throw new Error(`${rows.length} backends wait on the advisory lock: ${JSON.stringify(rows)}`);
      const [waiting] = rows as { pid: number; query: string }[];
      if (waiting && seen?.pid === waiting.pid && seen.query === waiting.query) return waiting;
      seen = waiting;
      if (Date.now() > deadline) throw new Error('no request reached the blocked statement within 10 s');
      if (!waiting) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** pg_terminate_backend: what an administrator, a crash or a failover does to a connection. */
  async terminate(pid: number): Promise<void> {
    const { rows } = await this.client.query('SELECT pg_terminate_backend($1) AS terminated', [pid]);
    if (rows[0].terminated !== true) throw new Error(`backend ${pid} was not terminated`);
  }

  async query<T extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return (await this.client.query(sql, parameters)).rows as T[];
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { authMigrations, type Clock, TypeOrmRateLimitStorage, UnitOfWork } from '#svc/auth';
import { canUsePostgres, freshDatabase } from '../../support/engines.js';
import { undoThrough } from '../../support/migrations.js';
import { describeNotRun } from '../../support/not-run.js';

/** One instant for the whole file: the counts stay in one window however long the migrations take. */
const startedAt = Date.now();
const clock: Clock = { now: () => new Date(startedAt) };

/** pg_class.relpersistence: 'u' unlogged, 'p' permanent (logged). */
async function persistenceOfCounters(dataSource: DataSource): Promise<string> {
  const rows: Array<{ relpersistence: string }> = await dataSource.query(`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_counters'`);
  return rows[0].relpersistence;
}

if (await canUsePostgres()) {
  describe('database limiter on PostgreSQL: an UNLOGGED counters table', () => {
    let dataSource: DataSource;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      const database = await freshDatabase('postgres');
      drop = database.drop;
      dataSource = await new DataSource({ ...database.options, migrations: authMigrations, migrationsRun: true, logging: false } as DataSourceOptions).initialize();
    });
    afterAll(async () => {
      await dataSource.destroy();
      await drop();
    });

    it('holds the counters outside the write-ahead log once the migrations have run', async () => {
      expect(await persistenceOfCounters(dataSource)).toBe('u');
      const storage = new TypeOrmRateLimitStorage(new UnitOfWork(dataSource), clock);
      await storage.check('ip:192.0.2.1', 60, 5);
      expect((await storage.check('ip:192.0.2.1', 60, 5)).count).toBe(2);
    });

    it('undoing that migration makes the table logged again and keeps the live counts', async () => {
      await undoThrough(dataSource, 'SvcRateLimitUnlogged1763900000000');
      expect(await persistenceOfCounters(dataSource)).toBe('p');
      const storage = new TypeOrmRateLimitStorage(new UnitOfWork(dataSource), clock);
      expect((await storage.check('ip:192.0.2.1', 60, 5)).count).toBe(3);
      await dataSource.runMigrations();
      expect(await persistenceOfCounters(dataSource)).toBe('u');
    });
  });
} else {
  describeNotRun('database limiter on PostgreSQL: an UNLOGGED counters table', 'PostgreSQL unreachable on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure)');
}

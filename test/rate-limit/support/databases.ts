import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { authMigrations, UnitOfWork } from '#svc/auth';
import { freshDatabase } from '../../support/engines.js';

/** Two DataSources on one store, as two application instances would have, each with its own UnitOfWork. */
export interface SharedDatabase {
  instances: [UnitOfWork, UnitOfWork];
  /** The SQLite file, for the SQLite variant. */
  file?: string;
  close(): Promise<void>;
}

/** A SQLite file opened by two better-sqlite3 connections; the second waits on the write lock (busy timeout). */
export async function sharedSqliteFile(): Promise<SharedDatabase> {
  const file = join(tmpdir(), `svc-rate-limit-${randomBytes(6).toString('hex')}.sqlite`);
  const options: DataSourceOptions = { type: 'better-sqlite3', database: file, timeout: 5000 };
  const shared = await openShared(options, () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  });
  return { ...shared, file };
}

/** A throwaway PostgreSQL database opened by two DataSources (two pools). */
export async function sharedPostgresDatabase(): Promise<SharedDatabase> {
  const database = await freshDatabase('postgres', authMigrations);
  return openShared(database.options, database.drop);
}

async function openShared(options: DataSourceOptions, drop: () => Promise<void> | void): Promise<SharedDatabase> {
  const first = await new DataSource({ ...options, migrations: authMigrations, migrationsRun: true, logging: false } as DataSourceOptions).initialize();
  const second = await new DataSource({ ...options, logging: false } as DataSourceOptions).initialize();
  return {
    instances: [new UnitOfWork(first), new UnitOfWork(second)],
    close: async () => {
      for (const dataSource of [first, second]) if (dataSource.isInitialized) await dataSource.destroy();
      await drop();
    },
  };
}

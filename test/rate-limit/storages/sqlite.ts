import { TypeOrmRateLimitStorage } from '#svc/auth';
import { sharedSqliteFile } from '../support/databases.js';
import { describeDatabaseHousekeeping } from '../support/database-housekeeping.js';
import { describeRateLimitStorageContract } from '../support/storage-contract.js';

describeRateLimitStorageContract('database on SQLite (one file, two better-sqlite3 connections)', async (clock) => {
  const database = await sharedSqliteFile();
  const [first, second] = database.instances;
  return {
    instances: [new TypeOrmRateLimitStorage(first, clock), new TypeOrmRateLimitStorage(second, clock)],
    unitOfWork: first,
    close: database.close,
  };
});

describeDatabaseHousekeeping('SQLite', sharedSqliteFile);

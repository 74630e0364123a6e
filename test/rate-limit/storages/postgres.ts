import { TypeOrmRateLimitStorage } from '#svc/auth';
import { canUsePostgres } from '../../support/engines.js';
import { sharedPostgresDatabase } from '../support/databases.js';
import { describeDatabaseHousekeeping } from '../support/database-housekeeping.js';
import { describeRateLimitStorageContract } from '../support/storage-contract.js';
import { describeNotRun } from '../../support/not-run.js';

if (await canUsePostgres()) {
  describeRateLimitStorageContract('database on PostgreSQL (one database, two DataSources)', async (clock) => {
    const database = await sharedPostgresDatabase();
    const [first, second] = database.instances;
    return {
      instances: [new TypeOrmRateLimitStorage(first, clock), new TypeOrmRateLimitStorage(second, clock)],
      unitOfWork: first,
      close: database.close,
    };
  });
  describeDatabaseHousekeeping('PostgreSQL', sharedPostgresDatabase);
} else {
  describeNotRun('RateLimitStorage contract: database on PostgreSQL', 'PostgreSQL unreachable on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure)');
}

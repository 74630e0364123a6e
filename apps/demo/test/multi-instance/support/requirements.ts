import { canUsePostgres } from '../../../../../test/support/engines.js';
import { canUseRedis } from '../../../../../test/rate-limit/support/redis.js';
import { describeNotRun } from '../../../../../test/support/not-run.js';

/**
 * Whether PostgreSQL and Redis both answer. Each check warns loudly when its engine is missing,
 * and throws instead under REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1.
 */
export async function canUsePostgresAndRedis(): Promise<boolean> {
  const [postgres, redis] = await Promise.all([canUsePostgres(), canUseRedis()]);
  return postgres && redis;
}

/** The suite, registered as a visible to-do instead of its tests. */
export function describeMissingEngines(title: string): void {
  describeNotRun(title, 'needs PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 make this a failure)');
}

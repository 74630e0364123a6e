import { describe, expect, it } from '@jest/globals';
import { canUsePostgres } from '../../support/engines.js';

/**
 * Declares the suite when PostgreSQL answers; otherwise one test that says, in the report, that
 * the suite did not run (canUsePostgres has warned, and fails under REQUIRE_POSTGRES=1).
 */
export async function describeOnPostgres(name: string, suite: () => void): Promise<void> {
  if (await canUsePostgres()) {
    describe(name, suite);
    return;
  }
  describe(name, () => {
    it('did not run: PostgreSQL is unreachable on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure)', () => {
      expect(process.env.REQUIRE_POSTGRES).not.toBe('1');
    });
  });
}

/** Declares the suite when a private redis-server can be started; otherwise one test saying it did not run (a failure under REQUIRE_REDIS=1). */
export function describeWithRedisServer(name: string, installed: boolean, suite: () => void): void {
  if (installed) {
    describe(name, suite);
    return;
  }
  if (process.env.REQUIRE_REDIS !== '1') console.warn(`\n!!! redis-server is not installed: "${name}" is SKIPPED !!!\n`);
  describe(name, () => {
    it('did not run: redis-server is not installed (REQUIRE_REDIS=1 makes this a failure)', () => {
      expect(process.env.REQUIRE_REDIS).not.toBe('1');
    });
  });
}

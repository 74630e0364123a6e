import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TypeOrmRateLimitStorage } from '#svc/auth';
import type { SharedDatabase } from './databases.js';
import { ManualClock, WINDOW_ALIGNED_EPOCH_MS } from './manual-clock.js';

/** The database backend's own duties: rows in `rate_limit_counters`, and deleting ended windows. */
export function describeDatabaseHousekeeping(name: string, open: () => Promise<SharedDatabase>): void {
  describe(`database backend housekeeping on ${name}`, () => {
    const clock = new ManualClock(WINDOW_ALIGNED_EPOCH_MS);
    let database: SharedDatabase;
    let storage: TypeOrmRateLimitStorage;
    const rows = () => database.instances[0].dataSource.query('SELECT "key", window_start, "count" FROM rate_limit_counters ORDER BY "key"');

    beforeAll(async () => {
      database = await open();
      storage = new TypeOrmRateLimitStorage(database.instances[0], clock);
    });

    afterAll(async () => {
      await database?.close();
    });

    it('keeps one row per key with its window start, and deletes the rows of ended windows', async () => {
      await storage.check('old', 60, 5);
      await storage.check('current', 60, 5);
      await storage.check('current', 60, 5);
      expect((await rows()).map((row: Record<string, unknown>) => [row.key, Number(row.window_start), Number(row.count)])).toEqual([
        ['current', WINDOW_ALIGNED_EPOCH_MS, 2],
        ['old', WINDOW_ALIGNED_EPOCH_MS, 1],
      ]);
      clock.advance(60_000);
      await storage.deleteEndedWindows(60);
      expect(await rows()).toEqual([]);
    });

    it('deletes the rows of ended windows on its own, at the first check of each new window', async () => {
      const start = clock.now().getTime();
      await storage.check('old', 60, 5);
      clock.advance(60_000);
      await storage.check('current', 60, 5);
      expect((await rows()).map((row: Record<string, unknown>) => [row.key, Number(row.window_start), Number(row.count)])).toEqual([['current', start + 60_000, 1]]);
    });

    it('stores a key longer than the column by its SHA-256', async () => {
      await storage.check(`account:${'x'.repeat(300)}@example.com:/auth/login`, 60, 5);
      expect((await rows()).map((row: Record<string, unknown>) => row.key)).toContainEqual(expect.stringMatching(/^sha256:[0-9a-f]{64}$/));
    });

    it('stores a key the column could not hold (NUL, lone surrogate) by its SHA-256, and counts it', async () => {
      for (const key of ['1.2.3.4:/p\u0000ath', '1.2.3.4:/p\ud800ath']) {
        await storage.check(key, 60, 5);
        expect((await storage.check(key, 60, 5)).count).toBe(2);
      }
      const keys = (await rows()).map((row: Record<string, unknown>) => String(row.key));
      expect(keys.filter((key: string) => key.includes('\u0000') || !key.isWellFormed())).toEqual([]);
    });
  });
}

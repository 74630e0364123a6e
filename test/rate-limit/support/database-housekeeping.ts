import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TypeOrmRateLimitStorage } from '#svc/auth';
import type { SharedDatabase } from './databases.js';
import { TestClock } from '#svc/auth/testing';
import { WINDOW_ALIGNED_EPOCH_MS } from './window-aligned.js';

/** The database backend's own duties: rows in `rate_limit_counters`, and deleting ended windows. */
export function describeDatabaseHousekeeping(name: string, open: () => Promise<SharedDatabase>): void {
  describe(`database backend housekeeping on ${name}`, () => {
    const clock = new TestClock(new Date(WINDOW_ALIGNED_EPOCH_MS));
    let database: SharedDatabase;
    let storage: TypeOrmRateLimitStorage;
    const rows = () => database.instances[0].dataSource.query('SELECT "key", window_start, window_end, "count" FROM rate_limit_counters ORDER BY "key"');
    const counters = async () => (await rows()).map((row: Record<string, unknown>) => [String(row.key), Number(row.window_start), Number(row.window_end), Number(row.count)] as const);

    beforeAll(async () => {
      database = await open();
      storage = new TypeOrmRateLimitStorage(database.instances[0], clock);
    });

    afterAll(async () => {
      await database?.close();
    });

    it('keeps one row per key with its window, and deletes the rows of ended windows', async () => {
      await storage.check('old', 60, 5);
      await storage.check('current', 60, 5);
      await storage.check('current', 60, 5);
      expect(await counters()).toEqual([
        ['current', WINDOW_ALIGNED_EPOCH_MS, WINDOW_ALIGNED_EPOCH_MS + 60_000, 2],
        ['old', WINDOW_ALIGNED_EPOCH_MS, WINDOW_ALIGNED_EPOCH_MS + 60_000, 1],
      ]);
      clock.advance(60_000);
      expect(await storage.deleteEndedWindows()).toBe(2);
      expect(await rows()).toEqual([]);
    });

    it('deletes the rows of ended windows on its own, at the first check of each minute', async () => {
      const start = clock.now().getTime();
      await storage.check('old', 60, 5);
      clock.advance(60_000);
      await storage.check('current', 60, 5);
      expect(await counters()).toEqual([['current', start + 60_000, start + 120_000, 1]]);
    });

    it('never deletes a live counter of a longer window, whatever instance or length housekeeps', async () => {
      const start = clock.now().getTime();
      const hourly = fixedHourStart(start);
      await storage.check('hourly', 3600, 5);
      await storage.check('hourly', 3600, 5);
      // A fresh instance (a restart, or another process) that has only seen one-minute windows.
      const other = new TypeOrmRateLimitStorage(database.instances[0], clock);
      for (let minute = 1; minute <= 3 && clock.now().getTime() + 60_000 < hourly + 3_600_000; minute++) {
        clock.advance(60_000);
        await other.check('minutely', 60, 5);
        await other.deleteEndedWindows();
      }
      expect((await storage.check('hourly', 3600, 5)).count).toBe(3);
      clock.advance(hourly + 3_600_000 - clock.now().getTime());
      await other.check('minutely', 60, 5);
      expect((await counters()).map((counter: readonly unknown[]) => counter[0])).toEqual(['minutely']);
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

function fixedHourStart(nowMs: number): number {
  return Math.floor(nowMs / 3_600_000) * 3_600_000;
}

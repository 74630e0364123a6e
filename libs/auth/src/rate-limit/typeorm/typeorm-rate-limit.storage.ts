import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AUTH_CLOCK } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { checkResult, fixedWindowAt } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

/** `rate_limit_counters.key` is varchar(255) (README, "Schema"). */
const MAX_KEY_LENGTH = 255;

/**
 * Counters in `rate_limit_counters`, one row per key holding the current window, on PostgreSQL or
 * SQLite (>= 3.35 for RETURNING).
 *
 * Each check is ONE statement, an upsert that increments the row or resets it when its window has
 * ended, and returns the new count. The database runs it atomically: PostgreSQL locks the row for
 * the conflicting update (concurrent upserts on one key queue behind it), SQLite holds its write
 * lock for the statement. It runs in autocommit mode, so it is its own transaction, committed
 * before the handler runs and independent of the request's unit of work: a later 401 or 500 never
 * undoes the count, and a refused request leaves no lock behind (README, "Rate limiting").
 *
 * It goes through `UnitOfWork.autocommit` rather than `transaction`: on SQLite that still waits its turn
 * on the single shared connection, without a BEGIN ... COMMIT that would hold the write lock
 * across awaits (two processes' interleaved explicit transactions make one of them fail with
 * SQLITE_BUSY).
 */
@Injectable()
export class TypeOrmRateLimitStorage implements RateLimitStorage {
  private readonly upsertSql: string;
  private housekeptWindow?: number;
  private longestWindowSeconds = 0;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    this.upsertSql = upsertSqlFor(unitOfWork.dataSource.options.type);
  }

  async check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    await this.housekeepOncePerWindow(now, windowSeconds);
    const rows: Array<{ count: number | string; window_start: number | string }> = await this.unitOfWork.autocommit((manager) =>
      manager.query(this.upsertSql, [storedKey(key), window.start]),
    );
    const row = rows[0];
    // The row may hold a later window than ours when another instance's clock runs ahead: its end counts.
    const windowEnd = Number(row.window_start) + windowSeconds * 1000;
    return checkResult(Number(row.count), max, windowEnd, now);
  }

  /**
   * The library's own schedule for deleting ended windows: the first check of each new window (of
   * the longest window length seen) does it, one statement per window and instance instead of a
   * timer. It fails like the check it is part of, and is tried again at the next check.
   */
  private async housekeepOncePerWindow(now: number, windowSeconds: number): Promise<void> {
    this.longestWindowSeconds = Math.max(this.longestWindowSeconds, windowSeconds);
    const { start } = fixedWindowAt(now, this.longestWindowSeconds);
    if (start === this.housekeptWindow) return;
    await this.deleteWindowsBefore(start);
    this.housekeptWindow = start;
  }

  /** Deletes the rows whose window ended before the current one (also done on its own, see above). */
  deleteEndedWindows(windowSeconds: number): Promise<void> {
    return this.deleteWindowsBefore(fixedWindowAt(this.clock.now().getTime(), windowSeconds).start);
  }

  private async deleteWindowsBefore(windowStart: number): Promise<void> {
    const parameter = this.unitOfWork.dataSource.options.type === 'postgres' ? '$1' : '?';
    await this.unitOfWork.autocommit((manager) => manager.query(`DELETE FROM rate_limit_counters WHERE window_start < ${parameter}`, [windowStart]));
  }
}

/**
 * Increment within the row's window, or start the new window at 1. A row already in a later
 * window (another instance's clock ahead) keeps it and counts this request there.
 */
function upsertSqlFor(databaseType: string): string {
  const [key, windowStart] = parametersFor(databaseType);
  const sameOrLaterWindow = 'rate_limit_counters.window_start >= excluded.window_start';
  return `INSERT INTO rate_limit_counters ("key", window_start, "count") VALUES (${key}, ${windowStart}, 1)
ON CONFLICT ("key") DO UPDATE SET
  "count" = CASE WHEN ${sameOrLaterWindow} THEN rate_limit_counters."count" + 1 ELSE 1 END,
  window_start = CASE WHEN ${sameOrLaterWindow} THEN rate_limit_counters.window_start ELSE excluded.window_start END
RETURNING "count", window_start`;
}

function parametersFor(databaseType: string): [string, string] {
  switch (databaseType) {
    case 'postgres':
      return ['$1', '$2'];
    case 'better-sqlite3':
    case 'sqlite':
      return ['?', '?'];
    default:
      throw new TypeError(`svc: rateLimit.backend 'database' supports PostgreSQL and SQLite (better-sqlite3), not ${databaseType}`);
  }
}

/**
 * Keys longer than the column (long paths or emails) are stored by their SHA-256, and so is any key
 * a column could not hold as it is (NUL, malformed Unicode), so that no key can fail the statement.
 */
function storedKey(key: string): string {
  const storable = key.length <= MAX_KEY_LENGTH && key.isWellFormed() && !key.includes('\0');
  return storable ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

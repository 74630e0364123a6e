import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AUTH_CLOCK } from '../../config/auth.constants.js';
import type { Clock } from '../../config/clock.js';
import { preparedQuery } from '../../persistence/prepared-query.js';
import { UnitOfWork } from '../../persistence/unit-of-work.js';
import { CoalescedIncrements, type Counted } from '../coalesced-increments.js';
import { checkResult, fixedWindowAt, peekResult } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

/** `rate_limit_counters.key` is varchar(255): longer keys are stored by their hash (docs/guides/rate-limiting.md). */
const MAX_KEY_LENGTH = 255;

/**
 * Counters in `rate_limit_counters`, one row per key holding the current window, on PostgreSQL or
 * SQLite (>= 3.35 for RETURNING).
 *
 * Each check is counted by ONE statement, an upsert that increments the row or resets it when its
 * window has ended, and returns the new count; checks of a key that arrive while its statement is
 * in flight are counted together by the next one (`CoalescedIncrements`). The database runs it
 * atomically: PostgreSQL locks the row for the conflicting update (concurrent upserts on one key,
 * from several instances, queue behind it), SQLite holds its write lock for the statement. It runs in autocommit mode, so it is its own transaction, committed
 * before the handler runs and independent of the request's unit of work: a later 401 or 500 never
 * undoes the count, and a refused request leaves no lock behind (docs/guides/rate-limiting.md).
 *
 * It goes through `UnitOfWork.autocommit` rather than `transaction`: on SQLite that still waits its turn
 * on the single shared connection, without a BEGIN ... COMMIT that would hold the write lock
 * across awaits (two processes' interleaved explicit transactions make one of them fail with
 * SQLITE_BUSY).
 */
/** How often an instance deletes ended windows on its own (the first check of each minute does it). */
const HOUSEKEEPING_SECONDS = 60;

@Injectable()
export class TypeOrmRateLimitStorage implements RateLimitStorage {
  private readonly upsertSql: string;
  private readonly selectSql: string;
  private readonly increments = new CoalescedIncrements((key, windowSeconds, amount) => this.incrementBy(key, windowSeconds, amount));
  private housekeptWindow?: number;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(AUTH_CLOCK) private readonly clock: Clock,
  ) {
    this.upsertSql = upsertSqlFor(unitOfWork.dataSource.options.type);
    this.selectSql = `SELECT "count", window_start, window_end FROM rate_limit_counters WHERE "key" = ${parametersFor(unitOfWork.dataSource.options.type)[0]}`;
  }

  async check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    await this.housekeepOncePerMinute(this.clock.now().getTime());
    const counted = await this.increments.add(storedKey(key), windowSeconds);
    // The row may hold a later window than ours when another instance's clock runs ahead: its end counts.
    return checkResult(counted.count, max, counted.windowEnd, this.clock.now().getTime());
  }

  /**
   * One read of the key's row: its count when it holds our window or a later one (the upsert would
   * add to it), else 0. Beside the increments in flight, it sees those that have committed.
   */
  async peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    const [row] = await this.unitOfWork.autocommit((manager) => preparedQuery(manager, this.selectSql, [storedKey(key)]));
    const current = row !== undefined && Number(row.window_start) >= window.start;
    return peekResult(current ? Number(row.count) : 0, max, current ? Number(row.window_end) : window.end, now);
  }

  private async incrementBy(key: string, windowSeconds: number, amount: number): Promise<Counted> {
    const window = fixedWindowAt(this.clock.now().getTime(), windowSeconds);
    const rows = await this.unitOfWork.autocommit((manager) => preparedQuery(manager, this.upsertSql, [key, window.start, window.end, amount]));
    return { count: Number(rows[0].count), windowEnd: Number(rows[0].window_end) };
  }

  /**
   * Deletes the counters whose own window has ended (each row knows its end, so a live counter of
   * a longer window is never touched); returns how many.
   */
  async deleteEndedWindows(): Promise<number> {
    const now = this.clock.now().getTime();
    const deleted = await this.unitOfWork.autocommit((manager) =>
      manager.createQueryBuilder().delete().from('rate_limit_counters').where('window_end <= :now', { now }).execute(),
    );
    return deleted.affected ?? 0;
  }

  /**
   * The library's own schedule for deleting ended windows: the first check of each minute does it,
   * one statement a minute and instance instead of a timer. It fails like the check it is part of,
   * and is tried again at the next check.
   */
  private async housekeepOncePerMinute(now: number): Promise<void> {
    const { start } = fixedWindowAt(now, HOUSEKEEPING_SECONDS);
    if (start === this.housekeptWindow) return;
    await this.deleteEndedWindows();
    this.housekeptWindow = start;
  }
}

/**
 * Add the amount within the row's window, or start the new window at the amount. A row already in
 * a later window (another instance's clock ahead) keeps it and counts these requests there.
 */
function upsertSqlFor(databaseType: string): string {
  const [key, windowStart, windowEnd, amount] = parametersFor(databaseType);
  const sameOrLaterWindow = 'rate_limit_counters.window_start >= excluded.window_start';
  const kept = (column: string) => `CASE WHEN ${sameOrLaterWindow} THEN rate_limit_counters.${column} ELSE excluded.${column} END`;
  return `INSERT INTO rate_limit_counters ("key", window_start, window_end, "count") VALUES (${key}, ${windowStart}, ${windowEnd}, ${amount})
ON CONFLICT ("key") DO UPDATE SET
  "count" = CASE WHEN ${sameOrLaterWindow} THEN rate_limit_counters."count" + excluded."count" ELSE excluded."count" END,
  window_start = ${kept('window_start')},
  window_end = ${kept('window_end')}
RETURNING "count", window_end`;
}

function parametersFor(databaseType: string): [string, string, string, string] {
  switch (databaseType) {
    case 'postgres':
      return ['$1', '$2', '$3', '$4'];
    case 'better-sqlite3':
      return ['?', '?', '?', '?'];
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

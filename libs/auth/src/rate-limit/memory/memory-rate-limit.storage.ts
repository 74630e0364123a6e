import type { OnApplicationShutdown } from '@nestjs/common';
import { type Clock, systemClock } from '../../config/clock.js';
import { checkResult, fixedWindowAt, fixedWindowEndAt, peekResult } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

const SWEEP_INTERVAL_MS = 60_000;
/** When full, ended windows are looked for at most this often, so a flood of new keys costs no scans. */
const FULL_SWEEP_INTERVAL_MS = 1_000;
export const DEFAULT_MEMORY_MAX_KEYS = 100_000;

interface Counter {
  windowEnd: number;
  count: number;
}

/**
 * Single-process counters. Exact within the process: a check reads and writes its counter without
 * yielding to the event loop. The counters belong to this instance, so two applications in one
 * process never share them; ended windows are swept every minute until shutdown.
 *
 * Bounded (docs/guides/rate-limiting.md): at `maxKeys` keys, ended windows go first; if none has
 * ended, a new key is refused (as over its limit) while known keys keep counting, so a flood of
 * spoofed addresses cannot grow the map without end.
 */
export class MemoryRateLimitStorage implements RateLimitStorage, OnApplicationShutdown {
  private readonly counters = new Map<string, Counter>();
  private readonly maxKeys: number;
  private sweeper?: NodeJS.Timeout;
  private lastFullSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    options: { maxKeys?: number } = {},
  ) {
    this.maxKeys = options.maxKeys ?? DEFAULT_MEMORY_MAX_KEYS;
  }

  /**
   * Answers at once (no promise): the limiter awaits nothing for it. Typed as the contract's
   * `check`, so a subclass may still override it with an `async check`.
   */
  check(key: string, windowSeconds: number, max: number): RateLimitCheck | Promise<RateLimitCheck> {
    // The system clock's time without a Date; an injected clock (tests) is asked as always.
    const now = this.clock === systemClock ? Date.now() : this.clock.now().getTime();
    const windowEnd = fixedWindowEndAt(now, windowSeconds);
    let counter = this.counters.get(key);
    if (counter === undefined) {
      // Full: a new key is refused as if it were over its limit (remaining 0), known keys keep counting.
      if (!this.hasRoom(now)) return checkResult(max + 1, max, windowEnd, now);
      counter = { windowEnd, count: 0 };
      this.counters.set(key, counter);
      this.startSweeper();
    } else if (counter.windowEnd !== windowEnd) {
      counter.windowEnd = windowEnd;
      counter.count = 0;
    }
    counter.count += 1;
    return checkResult(counter.count, max, windowEnd, now);
  }

  async peek(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    const counter = this.counters.get(key);
    return peekResult(counter?.windowEnd === window.end ? counter.count : 0, max, window.end, now);
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.counters.clear();
  }

  private hasRoom(now: number): boolean {
    if (this.counters.size < this.maxKeys) return true;
    if (now - this.lastFullSweep >= FULL_SWEEP_INTERVAL_MS) {
      this.lastFullSweep = now;
      this.sweepEndedWindows(now);
    }
    return this.counters.size < this.maxKeys;
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweepEndedWindows(this.clock.now().getTime()), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  private sweepEndedWindows(now: number): void {
    for (const [key, counter] of this.counters) {
      if (counter.windowEnd <= now) this.counters.delete(key);
    }
  }
}

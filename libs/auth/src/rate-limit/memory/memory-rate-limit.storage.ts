import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AUTH_CLOCK } from '../../auth.constants.js';
import type { Clock } from '../../clock.js';
import { checkResult, fixedWindowAt } from '../fixed-window.js';
import type { RateLimitCheck, RateLimitStorage } from '../rate-limit.storage.js';

const SWEEP_INTERVAL_MS = 60_000;

interface Counter {
  windowEnd: number;
  count: number;
}

/**
 * Single-process counters. Exact within the process: a check reads and writes its counter without
 * yielding to the event loop. The counters belong to this instance, so two applications in one
 * process never share them; ended windows are swept every minute until shutdown.
 */
@Injectable()
export class MemoryRateLimitStorage implements RateLimitStorage, OnApplicationShutdown {
  private readonly counters = new Map<string, Counter>();
  private sweeper?: NodeJS.Timeout;

  constructor(@Inject(AUTH_CLOCK) private readonly clock: Clock) {}

  async check(key: string, windowSeconds: number, max: number): Promise<RateLimitCheck> {
    const now = this.clock.now().getTime();
    const window = fixedWindowAt(now, windowSeconds);
    let counter = this.counters.get(key);
    if (!counter || counter.windowEnd !== window.end) {
      counter = { windowEnd: window.end, count: 0 };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    this.startSweeper();
    return checkResult(counter.count, max, window.end, now);
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.counters.clear();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweepEndedWindows(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  private sweepEndedWindows(): void {
    const now = this.clock.now().getTime();
    for (const [key, counter] of this.counters) {
      if (counter.windowEnd <= now) this.counters.delete(key);
    }
  }
}

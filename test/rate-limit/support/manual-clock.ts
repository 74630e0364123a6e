import type { Clock } from '#svc/auth';

/** A clock the test moves by hand, so windows end without sleeping. */
export class ManualClock implements Clock {
  constructor(private current: number) {}

  now(): Date {
    return new Date(this.current);
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** 2026-11-21T10:00:00Z: a multiple of every window length the tests use (1 s .. 1 h). */
export const WINDOW_ALIGNED_EPOCH_MS = Date.UTC(2026, 10, 21, 10, 0, 0);

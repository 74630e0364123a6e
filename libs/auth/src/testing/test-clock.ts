import type { Clock } from '../config/clock.js';

/** A clock a test moves by hand (provide it as AUTH_CLOCK): expiry without sleeping. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date): void {
    this.current = date.getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}

import type { Clock } from '#svc/auth';
import type { DemoProcess } from '../../demo/demo-process.js';
import { startPageDemo } from './page-demo.js';

/** The system clock plus an offset the test moves forward: the server's side of "time passes". */
export class ShiftableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  shift(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface DemoWithClock extends DemoProcess {
  clock: ShiftableClock;
}

/**
 * The demo in this process (startPageDemo) with the library's AUTH_CLOCK replaced by a
 * ShiftableClock: access tokens can expire without a test waiting for minutes (the library
 * allows no lifetime under one minute).
 */
export async function startDemoWithClock(env: Record<string, string>): Promise<DemoWithClock> {
  const clock = new ShiftableClock();
  return { ...(await startPageDemo(env, { clock })), clock };
}

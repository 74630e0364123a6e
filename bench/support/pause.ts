import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits for the logins a load run left in flight to finish inside the demo: autocannon stops
 * reading at the end of a slice, but the demo still finishes those bcrypt computations.
 */
export function settle(seconds = 2): Promise<void> {
  return sleep(seconds * 1000);
}

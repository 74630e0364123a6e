/** What one increment of a counter answers: the key's count after it, and the end of the window it counted in. */
export interface Counted {
  count: number;
  /** Epoch milliseconds. */
  windowEnd: number;
}

/** Adds `amount` to the key's counter in the current window, atomically, and answers the count after it. */
export type IncrementBy = (key: string, windowSeconds: number, amount: number) => Promise<Counted>;

interface Waiter {
  resolve(counted: Counted): void;
  reject(error: unknown): void;
}

interface InFlight {
  sentAt: number;
  /** Checks that arrived while the statement was in flight: they go together in the next one. */
  waiting: Waiter[];
}

/**
 * A statement in flight that has not answered after this long is treated as a backend that is
 * down: later checks of its key are refused at once (the limiter's `onBackendError`) instead of
 * queueing behind it, so a hung connection cannot pile up waiters. It equals the limiter's own
 * backend timeout.
 */
export const STALE_AFTER_MS = 2000;

/**
 * At most one increment in flight per key and process: checks of a key that arrive while its
 * statement runs wait, and then go together as ONE increment by their number. The statement
 * answers the count after all of them, and each waiter takes its own place in that run, as if
 * they had been counted one by one: exact, and never more than one round trip behind.
 *
 * This is what a flood from one address (the case a limiter exists for) needs: one statement per
 * round trip on its counter instead of one per request queueing on the same row lock.
 */
export class CoalescedIncrements {
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    private readonly incrementBy: IncrementBy,
    private readonly staleAfterMs = STALE_AFTER_MS,
    /** Monotonic milliseconds (a time-out, not a window: the injected clock is not involved). */
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  /** Counts one request for `key`; resolves with the count it got. */
  add(key: string, windowSeconds: number): Promise<Counted> {
    const slot = `${windowSeconds}s ${key}`;
    return new Promise<Counted>((resolve, reject) => {
      const flight = this.inFlight.get(slot);
      if (!flight) return this.send(slot, key, windowSeconds, [{ resolve, reject }]);
      // Fail closed on a backend that stopped answering, at once (docs/guides/rate-limiting.md).
      if (this.monotonicNow() - flight.sentAt > this.staleAfterMs) return reject(new Error(`no answer within ${this.staleAfterMs} ms`));
      flight.waiting.push({ resolve, reject });
    });
  }

  private send(slot: string, key: string, windowSeconds: number, batch: Waiter[]): void {
    const flight: InFlight = { sentAt: this.monotonicNow(), waiting: [] };
    this.inFlight.set(slot, flight);
    this.run(key, windowSeconds, batch).finally(() => {
      if (flight.waiting.length > 0) this.send(slot, key, windowSeconds, flight.waiting);
      else this.inFlight.delete(slot);
    });
  }

  private async run(key: string, windowSeconds: number, batch: Waiter[]): Promise<void> {
    try {
      const counted = await this.incrementBy(key, windowSeconds, batch.length);
      // The batch holds the last batch.length counts, in arrival order.
      const first = counted.count - batch.length + 1;
      batch.forEach((waiter, index) => waiter.resolve({ count: first + index, windowEnd: counted.windowEnd }));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }
}

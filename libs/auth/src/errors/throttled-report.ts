/** One line at most per this interval for a failure that repeats (an outage: every request meets it). */
const REPORT_INTERVAL_MS = 60_000;

/**
 * Reports a recurring failure at most once a minute, so an outage does not flood the log: the first
 * occurrence at once, later ones with the count of occurrences since the previous line.
 */
export class ThrottledReport {
  private lastReport = Number.NEGATIVE_INFINITY;
  private unreported = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number,
  ) {}

  occurred(line: string): void {
    this.unreported += 1;
    const now = this.now();
    if (now - this.lastReport < REPORT_INTERVAL_MS) return;
    const since = Number.isFinite(this.lastReport) ? ` (${this.unreported} requests since the last report)` : '';
    this.write(`${line}${since}`);
    this.lastReport = now;
    this.unreported = 0;
  }
}

// The bench's knobs, read from the environment (CONTRIBUTING.md). Every default keeps the whole
// `npm run bench` under about ten minutes on two cores; halve BENCH_SECONDS for a quick look.

/** A positive number from the environment, or the fallback. */
export function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number, got ${raw}`);
  return value;
}

/**
 * Interleaved rounds per figure (each ratio is the median of the rounds' ratios): at least 3.
 * Many short rounds beat a few long ones on a shared machine: a burst of someone else's work spoils
 * one round's ratio, and the median drops it.
 */
export const ROUNDS = Math.max(3, Math.round(setting('BENCH_ROUNDS', 5)));

/** Length of one throughput slice, in seconds (a round holds one slice per contender). */
export const SLICE_SECONDS = setting('BENCH_SECONDS', 2);

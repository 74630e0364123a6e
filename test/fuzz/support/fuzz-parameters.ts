import fc from 'fast-check';

/**
 * How many cases each property runs, and how to replay a failure. `npm test` runs a bounded
 * number (FUZZ_RUNS, default 30); `npm run fuzz` runs more and shrinks failures. fast-check prints
 * `{ seed, path }` with a counterexample: `FUZZ_SEED=<seed> FUZZ_PATH=<path> npm run fuzz -- -t '<property>'`
 * replays it (FUZZ_SHRINK=1 shrinks it too).
 */
export const FUZZ_RUNS = positiveInteger('FUZZ_RUNS', 30);

export function fuzzParameters<T>(runs: number = FUZZ_RUNS): fc.Parameters<T> {
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return {
    numRuns: runs,
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
    ...(path !== undefined && path !== '' ? { path } : {}),
    // Each case is an HTTP request: shrinking a failure can take long, so it is opt-in.
    endOnFailure: process.env.FUZZ_SHRINK !== '1',
  };
}

/** A jest timeout for a property of `runs` cases, each allowed `perCaseMs`. */
export function propertyTimeout(perCaseMs: number, runs: number = FUZZ_RUNS): number {
  const shrinking = process.env.FUZZ_SHRINK === '1' ? 10 : 1;
  return 20_000 + runs * perCaseMs * shrinking;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

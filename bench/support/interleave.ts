import { ROUNDS } from './settings.js';

/**
 * Measures every contender once per round, in turns (A,B,C then C,B,A, then A,B,C, ...): load from
 * elsewhere on the machine, and drift (caches, JIT, table growth), hit them all alike. Returns each
 * contender's value per round, in round order.
 */
export async function interleavedRounds<K extends string>(contenders: Record<K, () => Promise<number>>, rounds = ROUNDS): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const values = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) values[name].push(await contenders[name]());
  }
  return values;
}

/** The ratio of two contenders' values, round by round. */
export function roundRatios(numerator: readonly number[], denominator: readonly number[]): number[] {
  return numerator.map((value, round) => value / denominator[round]);
}

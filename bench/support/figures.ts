// A figure is one RATIO line of `npm run bench`: two measures taken side by side in interleaved
// rounds, the ratio per round, and the median of those ratios. Figures are printed, never asserted.
import { appendFileSync } from 'node:fs';
import { median } from './stats.js';
import { table } from './table.js';

export type Target = { atLeast: number } | { atMost: number } | { between: [number, number] } | 'report only';

export interface Measure {
  label: string;
  unit: string;
  /** One value per round. */
  rounds: number[];
}

export interface Figure {
  name: string;
  /** The median of the per-round ratios. */
  value: number;
  target: Target;
  ratios: number[];
  numerator: Measure;
  denominator: Measure;
  note?: string;
}

export function figureOf(name: string, target: Target, numerator: Measure, denominator: Measure, note?: string): Figure {
  const ratios = numerator.rounds.map((value, round) => value / denominator.rounds[round]);
  return { name, value: median(ratios), target, ratios, numerator, denominator, note };
}

export function describeTarget(target: Target): string {
  if (target === 'report only') return 'report only';
  if ('atLeast' in target) return `>= ${target.atLeast}`;
  if ('atMost' in target) return `<= ${target.atMost}`;
  return `${target.between[0]}..${target.between[1]}`;
}

export function meetsTarget(figure: Pick<Figure, 'value' | 'target'>): boolean | undefined {
  const { value, target } = figure;
  if (target === 'report only') return undefined;
  if ('atLeast' in target) return value >= target.atLeast;
  if ('atMost' in target) return value <= target.atMost;
  return value >= target.between[0] && value <= target.between[1];
}

function amount(value: number, unit: string): string {
  return `${value >= 100 ? value.toFixed(0) : value.toPrecision(3)} ${unit}`;
}

/** The figures' table: both measures (median of the rounds), every round's ratio, the figure, its target. */
export function figureTable(figures: Figure[]): string {
  const rows = figures.map((figure) => {
    const verdict = meetsTarget(figure);
    return [
      figure.name,
      `${figure.numerator.label}: ${amount(median(figure.numerator.rounds), figure.numerator.unit)}`,
      `${figure.denominator.label}: ${amount(median(figure.denominator.rounds), figure.denominator.unit)}`,
      figure.ratios.map((ratio) => ratio.toFixed(3)).join(' '),
      figure.value.toFixed(3),
      `${describeTarget(figure.target)}${verdict === false ? ' MISSED' : ''}`,
    ];
  });
  return table(['figure', 'numerator (median)', 'denominator (median)', 'ratio per round', 'ratio', 'target'], rows);
}

export function ratioLine(figure: Pick<Figure, 'name' | 'value'>): string {
  return `RATIO ${figure.name} ${figure.value.toFixed(3)}`;
}

/**
 * Prints the figures' table and hands them to `bench/run.ts` (BENCH_FIGURES_FILE, one JSON line
 * each), which prints the RATIO lines after every table; run on its own, a bench prints them itself.
 */
export function publish(figures: Figure[]): void {
  console.log(`\n${figureTable(figures)}`);
  for (const figure of figures) if (figure.note) console.log(`  ${figure.name}: ${figure.note}`);
  const file = process.env.BENCH_FIGURES_FILE;
  if (file) appendFileSync(file, figures.map((figure) => `${JSON.stringify(figure)}\n`).join(''));
  else console.log(`\n${figures.map(ratioLine).join('\n')}`);
}

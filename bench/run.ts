// `npm run bench`: every benchmark, one process each, in one run (they need PostgreSQL; the
// rate-limit one also Redis). Each prints its table; then this prints one `RATIO <name> <value>`
// line per figure and writes every raw number to bench/results/latest.json. Figures are printed,
// never asserted: targets are read by people. BENCH_ONLY=session-me,login runs some of them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTarget, type Figure, meetsTarget, ratioLine } from './support/figures.js';
import { table } from './support/table.js';

const BENCHES = ['session-me', 'jwt-me', 'jwt-vs-session', 'api-key-me', 'eddsa-jwt-me', 'passport-svc-jwt', 'me-cached', 'roles', 'org-permissions', 'admin-list', 'activity', 'login', 'audit-login', 'login-storm', 'rate-limit', 'password-timing', 'mfa-timing'];
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const figuresFile = join(tmpdir(), `svc-bench-figures-${process.pid}.jsonl`);
rmSync(figuresFile, { force: true });
const started = new Date();
const load = { before: loadavg(), after: [] as number[] };
const failed: string[] = [];
const seconds: Record<string, number> = {};
for (const name of BENCHES.filter((bench) => !only || only.includes(bench))) {
  console.log(`\n=== ${name} ===`);
  const begin = Date.now();
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', './bench/ts-register.mjs', `bench/${name}.bench.ts`], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_FIGURES_FILE: figuresFile },
  });
  seconds[name] = Math.round((Date.now() - begin) / 1000);
  if (run.status !== 0) failed.push(name);
}
load.after = loadavg();

let figures: Figure[] = [];
try {
  figures = readFileSync(figuresFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Figure);
} catch {
  // no bench got as far as its figures
}
rmSync(figuresFile, { force: true });

console.log(`\n=== figures (median of interleaved rounds; machine load average ${load.before.map((value) => value.toFixed(1)).join(' ')} before, ${load.after.map((value) => value.toFixed(1)).join(' ')} after) ===`);
console.log(
  table(
    ['figure', 'ratio', 'ratio per round', 'target'],
    figures.map((figure) => [figure.name, figure.value.toFixed(3), figure.ratios.map((ratio) => ratio.toFixed(3)).join(' '), `${describeTarget(figure.target)}${meetsTarget(figure) === false ? ' MISSED' : ''}`]),
  ),
);
if (failed.length > 0) console.log(`!!! failed: ${failed.join(', ')}`);
console.log('');
for (const figure of figures) console.log(ratioLine(figure));

mkdirSync(RESULTS, { recursive: true });
writeFileSync(
  join(RESULTS, 'latest.json'),
  `${JSON.stringify({ started: started.toISOString(), node: process.version, cpus: availableParallelism(), loadAverage: load, secondsPerBench: seconds, failed, figures }, null, 2)}\n`,
);
console.log(`\nraw numbers: ${join(RESULTS, 'latest.json')}`);
process.exit(failed.length > 0 ? 1 : 0);

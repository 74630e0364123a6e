// `npm run bench`: every benchmark, one process each, in one run (they need PostgreSQL; the
// rate-limit one also Redis). Figures are printed, never asserted: targets are read by people.
import { spawnSync } from 'node:child_process';

const BENCHES = ['session-me', 'password-timing', 'rate-limit'];
let failed = false;
for (const name of BENCHES) {
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', './bench/ts-register.mjs', `bench/${name}.bench.ts`], { stdio: 'inherit' });
  failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);

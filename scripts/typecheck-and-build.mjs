// npm test's first step: the typecheck (libs, apps, test, bench, then the demo page's browser code)
// and the build (dist/ and the demo page's bundle, which the demo and browser suites start) run side
// by side, one per core; it fails when either fails.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

function node(args) {
  return new Promise((done) => spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }).on('exit', (code) => done(code ?? 1)));
}

async function inTurn(...steps) {
  for (const args of steps) {
    const code = await node(args);
    if (code !== 0) return code;
  }
  return 0;
}

const codes = await Promise.all([
  inTurn([tsc, '--noEmit', '-p', 'tsconfig.json'], [tsc, '-p', 'apps/demo/page-src/tsconfig.json']),
  inTurn([tsc, '-p', 'tsconfig.build.json'], [join(root, 'scripts/build-demo-page.mjs')]),
]);
process.exit(codes.every((code) => code === 0) ? 0 : 1);

// npm test's first step, `npm run typecheck` and `npm run build` with each file checked once, in two
// halves of about the same work side by side, one per core; it fails when either fails. One half is
// the build: dist/ (tsc checks the files it compiles: libs, apps, bench/app), the demo page's
// browser code checked, then bundled (the demo and browser suites start them). The other checks the
// rest of tsconfig.json's program: the specs, test/ and bench/ (scripts/typecheck-beside-build.mjs).
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
  inTurn([join(root, 'scripts/typecheck-beside-build.mjs')]),
  inTurn([tsc, '-p', 'tsconfig.build.json'], [tsc, '-p', 'apps/demo/page-src/tsconfig.json'], [join(root, 'scripts/build-demo-page.mjs')]),
]);
process.exit(codes.every((code) => code === 0) ? 0 : 1);

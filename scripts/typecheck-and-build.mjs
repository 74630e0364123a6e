// npm test's first step: the typecheck (libs, apps, test, bench) and the build (dist/, which the
// demo and browser suites start) run side by side, one per core; it fails when either fails.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

function run(args) {
  return new Promise((done) => spawn(process.execPath, [tsc, ...args], { cwd: root, stdio: 'inherit' }).on('exit', (code) => done(code ?? 1)));
}

const codes = await Promise.all([run(['--noEmit', '-p', 'tsconfig.json']), run(['-p', 'tsconfig.build.json'])]);
process.exit(codes.every((code) => code === 0) ? 0 : 1);

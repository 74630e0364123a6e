// npm run pack: builds libs/auth into the installable `svc` package and packs it with npm.
// The tarball lands in dist/pack/; its absolute path is the last line printed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const library = join(root, 'libs/auth');
const outDir = join(root, 'dist/pack');

rmSync(join(library, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(library, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
for (const file of ['README.md', 'LICENSE']) copyFileSync(join(root, file), join(library, file));

mkdirSync(outDir, { recursive: true });
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: library, encoding: 'utf8' }),
);
process.stdout.write(`${join(outDir, packed[0].filename)}\n`);

// npm run pack: builds libs/auth into the installable `svc` package and packs it with npm.
// The tarball lands in dist/pack/; its absolute path is the last line printed.
//
// The build (`npm run build`, npm test's first step) compiles libs/auth with the same compiler
// options into dist/libs/auth/src, source maps beside. When that output is newer than every file it
// comes from (the sources, the tsconfig files, TypeScript and the installed packages), pack copies
// its .js (less the source map's comment) and .d.ts files instead of compiling libs/auth a second
// time; otherwise it compiles. A build with errors emits nothing (noEmitOnError), so output newer
// than its sources is that of a build that passed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const library = join(root, 'libs/auth');
const outDir = join(root, 'dist/pack');
const PACK_CONFIG = join(library, 'tsconfig.build.json');
const BUILD_CONFIG = join(root, 'tsconfig.build.json');

rmSync(join(library, 'dist'), { recursive: true, force: true });
const built = reusableBuild();
if (built) {
  for (const [from, to] of built) {
    mkdirSync(dirname(to), { recursive: true });
    if (to.endsWith('.js')) writeFileSync(to, withoutSourceMapComment(readFileSync(from, 'utf8'), from));
    else copyFileSync(from, to);
  }
} else {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', PACK_CONFIG], { stdio: 'inherit' });
}
for (const file of ['README.md', 'LICENSE']) copyFileSync(join(root, file), join(library, file));

mkdirSync(outDir, { recursive: true });
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: library, encoding: 'utf8' }),
);
process.stdout.write(`${join(outDir, packed[0].filename)}\n`);

function parsed(config) {
  const result = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return result && result.errors.length === 0 ? result : undefined;
}

/**
 * The build's output to copy, as [built file, package file] pairs, when it is what compiling
 * PACK_CONFIG would write: the same options but for where the files go and the source maps, every
 * file of the package compiled by the build, and all of it newer than everything it comes from.
 */
function reusableBuild() {
  const pack = parsed(PACK_CONFIG);
  const build = parsed(BUILD_CONFIG);
  if (!pack || !build) return undefined;
  const comparable = ({ rootDir, outDir, sourceMap, configFilePath, ...rest }) => JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
  if (comparable(pack.options) !== comparable(build.options) || pack.options.sourceMap) return undefined;
  const builtFiles = new Set(build.fileNames);
  const pairs = [];
  for (const source of pack.fileNames) {
    if (!builtFiles.has(source)) return undefined;
    const wanted = ts.getOutputFileNames(pack, source, false);
    const emitted = ts.getOutputFileNames(build, source, false).filter((file) => !file.endsWith('.map'));
    if (wanted.length !== emitted.length) return undefined;
    for (const [index, to] of wanted.entries()) {
      const from = emitted[index];
      if (from.slice(from.lastIndexOf('.')) !== to.slice(to.lastIndexOf('.'))) return undefined;
      pairs.push([from, to]);
    }
  }
  const inputs = [
    ...pack.fileNames,
    join(root, 'tsconfig.json'),
    BUILD_CONFIG,
    PACK_CONFIG,
    join(root, 'node_modules/typescript/package.json'),
    join(root, 'node_modules/.package-lock.json'),
  ];
  const newestInput = Math.max(...inputs.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs));
  const fresh = pairs.every(([from]) => existsSync(from) && statSync(from).mtimeMs >= newestInput);
  return fresh ? pairs : undefined;
}

/** tsc ends a file it maps with `//# sourceMappingURL=<name>.js.map`; without a map, the same file ends before it. */
function withoutSourceMapComment(code, file) {
  const comment = `//# sourceMappingURL=${file.slice(file.lastIndexOf('/') + 1)}.map`;
  if (!code.endsWith(comment)) throw new Error(`${file} does not end with ${comment}`);
  return code.slice(0, -comment.length);
}

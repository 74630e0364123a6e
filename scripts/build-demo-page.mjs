// The demo page's script: apps/demo/page-src/*.ts bundled by esbuild into dist/apps/demo/page/, which
// the demo serves under /demo/. Entry points: main.js (what the page loads) and the modules a page
// may import on its own; shared code lands in chunks, so each module runs once.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'apps/demo/page-src');
export const DEMO_PAGE_OUT = join(root, 'dist/apps/demo/page');

await rm(DEMO_PAGE_OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: ['main', 'api', 'refusal', 'validation-problems'].map((name) => join(source, `${name}.ts`)),
  outdir: DEMO_PAGE_OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['source'],
  minify: true,
  sourcemap: 'linked',
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .reduce((sum, [, output]) => sum + output.bytes, 0);
if (process.env.DEMO_PAGE_SIZE === '1') console.log(`demo page script: ${bytes} bytes (minified)`);

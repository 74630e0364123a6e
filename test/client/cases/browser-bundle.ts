import { describe, expect, it } from '@jest/globals';
import { build, type BuildOptions } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const CLIENT = join(REPO, 'libs/auth/src/client');
/** What an application's bundler adds for all of svc/client, minified and gzipped, at most. */
const BUDGET_BYTES = 16 * 1024;
/** The guide states the sizes; each may be this far from the measure before the guide must be updated. */
const STATED_TOLERANCE = 0.1;

/** Node's built-ins, and packages that only a server has: Nest, TypeORM, the drivers, the server's protocol libraries. */
const NODE_BUILTIN = /^node:|^(crypto|fs|path|stream|buffer|util|http|https|net|tls|zlib|os|events|child_process|worker_threads)$/;
const SERVER_ONLY = /node_modules\/(@nestjs|typeorm|reflect-metadata|rxjs|pg|better-sqlite3|ioredis|bcrypt|jose|openid-client|@simplewebauthn\/server|otpauth|qrcode|cookie|express)\//;

/** A browser bundle (esbuild, platform browser: a Node built-in anywhere in the graph fails the build) of `source`, minified. */
async function browserBundle(source: string) {
  const options: BuildOptions = {
    stdin: { contents: source, resolveDir: CLIENT, loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  };
  const result = await build(options);
  const [output] = Object.values(result.metafile!.outputs);
  return {
    inputs: Object.keys(result.metafile!.inputs),
    /** The inputs that left code in the bundle (tree shaking drops the others). */
    bundled: Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path),
    gzipped: gzipSync(result.outputFiles![0].contents, { level: 9 }).length,
  };
}

/** The size the guide states after `label`, in bytes. */
function stated(label: string): number {
  const match = new RegExp(`${label}: \\*\\*([\\d.]+) kB\\*\\*`).exec(readFileSync(join(REPO, 'docs/guides/client.md'), 'utf8'));
  if (!match) throw new Error(`docs/guides/client.md states no "${label}: **<n> kB**"`);
  return Number(match[1]) * 1000;
}

describe('svc/client in a browser bundle', () => {
  it('bundles for the browser with nothing Node-only, nothing of the server and no other folder of the library in it, within its size budget', async () => {
    const { inputs, gzipped } = await browserBundle(`export * from './index.ts';`);
    expect(inputs.filter((input) => NODE_BUILTIN.test(input) || SERVER_ONLY.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.startsWith('libs/') && !input.startsWith('libs/auth/src/client/'))).toEqual([]);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(Math.abs(stated('all of svc/client, minified and gzipped') - gzipped) / gzipped).toBeLessThanOrEqual(STATED_TOLERANCE);
  });

  it('leaves bowser out of an application that does not name devices (createSvcClient alone), at the size the guide states', async () => {
    const { bundled, gzipped } = await browserBundle(`import { createSvcClient } from './index.ts'; globalThis.client = createSvcClient;`);
    expect(bundled.filter((input) => input.includes('node_modules/bowser/'))).toEqual([]);
    expect(bundled.filter((input) => input.includes('node_modules/@simplewebauthn/browser/')).length).toBeGreaterThan(0);
    expect(Math.abs(stated('createSvcClient alone, minified and gzipped') - gzipped) / gzipped).toBeLessThanOrEqual(STATED_TOLERANCE);
  });

  it("type-checks as a browser project sees it: the DOM's types, no Node types, strict, its packages' declarations checked too", () => {
    const program = ts.createProgram([join(CLIENT, 'index.ts')], {
      strict: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: false,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 60_000);
});

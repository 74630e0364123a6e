import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO = new URL('../../..', import.meta.url).pathname;

/** Runs a command; a failure carries its output, so the test report says what went wrong. */
export async function sh(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  try {
    const { stdout } = await run(file, args, { ...options, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${message}\n--- stdout\n${stdout ?? ''}\n--- stderr\n${stderr ?? ''}`);
  }
}

/** The version of a package installed in this repository, so the scratch install hits npm's cache. */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

const RUNTIME = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/event-emitter',
  '@nestjs/platform-express',
  '@nestjs/schedule',
  '@nestjs/swagger',
  '@nestjs/terminus',
  '@nestjs/testing',
  '@nestjs/typeorm',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
  'typeorm',
  'better-sqlite3',
  'pg',
];
const DEVELOPMENT = ['@types/express', '@types/node', '@types/supertest', 'supertest'];

/**
 * An application as a Nest user would set it up: its own package.json naming the svc tarball and
 * the peers the README lists, and the README's files.
 */
export function writeScratchApp(dir: string, tarball: string, files: Map<string, string>): void {
  const pinned = (names: string[]) => Object.fromEntries(names.map((name) => [name, installedVersion(name)]));
  const manifest = {
    name: 'projects',
    private: true,
    type: 'module',
    dependencies: { svc: `file:${tarball}`, ...pinned(RUNTIME) },
    devDependencies: pinned(DEVELOPMENT),
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/**
 * npm installs with scripts off (nothing is compiled or downloaded beside the registry), so
 * better-sqlite3's native addon, same version and Node, is copied from this repository's build.
 */
export function copySqliteAddon(dir: string): void {
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(dirname(join(dir, addon)), { recursive: true });
  copyFileSync(join(REPO, addon), join(dir, addon));
}

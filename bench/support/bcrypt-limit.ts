// What bcrypt alone allows on this machine: bcrypt-throughput.ts in a separate process with the
// demo's cost and libuv thread pool size.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { threadPoolSize } from './demo.js';
import type { ClosedLoopResult } from './load.js';

const SCRIPT = fileURLToPath(new URL('./bcrypt-throughput.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('../ts-register.mjs', import.meta.url));

export interface BcryptRun {
  /** Resolves when the compares start (the process has loaded and made its hash). */
  started: Promise<void>;
  result: Promise<ClosedLoopResult>;
}

export function bcryptRun(options: { cost: number; concurrency: number; seconds: number }): BcryptRun {
  const child = spawn(process.execPath, ['--import', REGISTER, SCRIPT, JSON.stringify(options)], {
    env: { PATH: process.env.PATH ?? '', UV_THREADPOOL_SIZE: threadPoolSize() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('started\n')) onStarted();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<ClosedLoopResult>((resolve, reject) =>
    child.once('exit', (code) => {
      onStarted();
      if (code === 0) resolve(JSON.parse(stdout.slice('started\n'.length)) as ClosedLoopResult);
      else reject(new Error(`bcrypt-throughput exited ${code}: ${stderr}`));
    }),
  );
  return { started, result };
}

export function bcryptThroughput(options: { cost: number; concurrency: number; seconds: number }): Promise<ClosedLoopResult> {
  return bcryptRun(options).result;
}

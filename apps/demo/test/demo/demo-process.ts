import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../../dist/apps/demo/src/main.js', import.meta.url));

/** The demo as `npm start` runs it (the built output), driven from outside over HTTP. */
export interface DemoProcess {
  baseUrl: string;
  lines: string[];
  /** What the process wrote to stderr so far (warnings); absent for an in-process demo. */
  stderr?(): string;
  stop(): Promise<void>;
  /** Resolves with the first stdout line starting with `prefix` that `match` accepts. */
  waitForLine(prefix: 'EVENT ' | 'MAIL ', match?: (json: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export function assertBuilt(main: string = MAIN): void {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
}

/**
 * Runs the demo with `env` and waits until it serves, or until it exits (config errors). `main`:
 * another built entry serving the demo (the benchmarks' bench/app).
 */
export function runDemo(env: Record<string, string>, main: string = MAIN): Promise<{ exitCode: number; stderr: string } | DemoProcess> {
  assertBuilt(main);
  // bcrypt at the lowest cost the demo takes (AUTH_BCRYPT_COST, a quarter of the default's work) unless `env` says;
  // demo-config.spec checks the default of 12.
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', AUTH_BCRYPT_COST: '10', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  const listeners: (() => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const wake of listeners.splice(0)) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  // 'close', not 'exit': it comes once the child's pipes are closed too, so its stderr is read whole
  // and nothing of it outlives the suite (Jest's "a worker process has failed to exit gracefully").
  const closed = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    void closed.then((exitCode) => resolve({ exitCode, stderr }));
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let polling = false;
    let served = false;
    let askAgain = false;
    const poll = async () => {
      clearTimeout(timer);
      if (polling) askAgain = true;
      if (child.exitCode !== null || polling || served) return;
      polling = true;
      askAgain = false;
      try {
        await fetch(`${baseUrl}/auth/me`);
        served = true;
        child.stdout!.off('data', onLog);
        resolve(demoProcess(child, closed, baseUrl, lines, listeners, () => stderr));
      } catch (error) {
        // Five demos starting at once beside a second test run (load average 11) took over 20 s.
        if (Date.now() - started > 60_000) {
          child.kill('SIGTERM'); // no demo outlives the test that gave up on it
          reject(new Error(`demo did not start within 60 s (last try: ${String(error)}): ${stderr}`));
        } else timer = setTimeout(poll, askAgain ? 0 : 100);
      } finally {
        polling = false;
      }
    };
    // The startup log's last line says it listens: ask at once rather than at the next 100 ms poll.
    const onLog = (chunk: Buffer) => {
      if (chunk.toString().includes('listening on')) void poll();
    };
    child.stdout!.on('data', onLog);
    void poll();
  });
}

function demoProcess(child: ChildProcess, closed: Promise<number>, baseUrl: string, lines: string[], listeners: (() => void)[], stderr: () => string): DemoProcess {
  return {
    baseUrl,
    lines,
    stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await closed;
    },
    async waitForLine(prefix, match = () => true) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = lines.filter((line) => line.startsWith(prefix)).map((line) => JSON.parse(line.slice(prefix.length))).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${prefix}line matched; stdout was:\n${lines.join('\n')}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          listeners.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

/** A demo a suite started, and how to stop it with what it needs beside it. */
export interface SuiteDemo {
  demo: DemoProcess;
  stop(): Promise<void>;
}

/**
 * Runs the demo with `env` for a suite, beside what it needs (a provider, a database): `release`
 * frees that once the demo has stopped, or at once if the demo exits at startup, whose stderr is
 * then thrown.
 */
export async function startSuiteDemo(env: Record<string, string>, release: () => Promise<void> = async () => undefined): Promise<SuiteDemo> {
  const started = await runDemo(env).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  if ('exitCode' in started) {
    await release();
    throw new Error(`demo exited: ${started.stderr}`);
  }
  return {
    demo: started,
    stop: async () => {
      await started.stop();
      await release();
    },
  };
}

/**
 * Runs a suite's starts at once (its describe.each cases, each a demo and what it needs), rather
 * than one case's beforeAll after the other's: each result by name. If one fails, those that
 * started are stopped and the failure is thrown.
 */
export async function startTogether<Name extends string, Started extends { stop(): Promise<void> }>(starts: Record<Name, () => Promise<Started>>): Promise<Record<Name, Started>> {
  const names = Object.keys(starts) as Name[];
  const results = await Promise.allSettled(names.map((name) => starts[name]()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(results.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    throw failed.reason;
  }
  return Object.fromEntries(names.map((name, i) => [name, (results[i] as PromiseFulfilledResult<Started>).value])) as Record<Name, Started>;
}

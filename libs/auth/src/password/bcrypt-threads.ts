import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

type Job = { operation: 'hash'; password: string; cost: number } | { operation: 'compare'; password: string; hash: string } | { operation: 'stop' };

interface Pending {
  job: Job;
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

/**
 * Each thread runs bcrypt synchronously and lowers its own scheduling priority first (nice 10):
 * the kernel then gives a core to requests and the database before bcrypt, so a storm of logins
 * slows logins far more than the other routes, while on a machine busy with other work logins
 * still get about a tenth of a core each (nice 19 starved them: docs/decisions/0008-passwords.md). Lowering
 * one's own priority needs no privilege; where it is not possible (no /proc/thread-self outside
 * Linux), the thread keeps the normal priority.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
const bcrypt = require(workerData.bcryptPath);
try { setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10); } catch {}
parentPort.on('message', (job) => {
  // Ends the thread once its job is done: the port closed, nothing keeps it alive.
  if (job.operation === 'stop') return parentPort.close();
  try {
    const result = job.operation === 'hash' ? bcrypt.hashSync(job.password, job.cost) : bcrypt.compareSync(job.password, job.hash);
    parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

/** What runs bcrypt for PasswordHasher: BcryptThreads in an application, bcrypt's own async calls in the testing kit. */
export interface BcryptRunner {
  hash(password: string, cost: number): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * bcrypt on the library's own low-priority threads, one per core (docs/decisions/0008-passwords.md), instead of
 * libuv's shared pool, whose four threads also serve the application's file and DNS work. Jobs
 * wait in one queue and go to the next free thread; a thread that dies fails its job and is
 * replaced.
 */
export class BcryptThreads implements BcryptRunner {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private readonly bcryptPath = createRequire(import.meta.url).resolve('bcrypt');
  private closed = false;

  constructor(size = availableParallelism()) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  hash(password: string, cost: number): Promise<string> {
    return this.run({ operation: 'hash', password, cost }) as Promise<string>;
  }

  compare(password: string, hash: string): Promise<boolean> {
    return this.run({ operation: 'compare', password, hash }) as Promise<boolean>;
  }

  /**
   * Refuses the jobs still waiting or running, and ends every thread once its current hash is done.
   * Never `worker.terminate()`: a thread stopped inside bcrypt's native code aborts the whole process
   * (`terminate called after throwing an instance of 'Napi::Error'`), which a shutdown during a
   * storm of logins would meet.
   */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = () => new Error('svc: the password threads have stopped');
    for (const waiting of this.queue.splice(0)) waiting.reject(stopped());
    for (const running of this.running.values()) running.reject(stopped());
    const threads = [...this.idle.splice(0), ...this.running.keys()];
    this.running.clear();
    await Promise.all(threads.map((worker) => this.stop(worker)));
  }

  private run(job: Job): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('svc: the password threads have stopped'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const next = this.queue.shift()!;
      this.running.set(worker, next);
      // A thread keeps the process alive while it holds a job (an awaited hash finishes), not while idle.
      worker.ref();
      worker.postMessage(next.job);
    }
  }

  /** Asks a thread to end after its current job, and resolves when it has. */
  private stop(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      worker.once('exit', () => resolve());
      // Kept alive until it has ended, so that close() resolves.
      worker.ref();
      worker.postMessage({ operation: 'stop' } satisfies Job);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { bcryptPath: this.bcryptPath } });
    worker.on('message', (answer: { result?: string | boolean; error?: string }) => {
      // The answer of a job refused by close(): the thread is ending.
      if (this.closed) return;
      const pending = this.running.get(worker);
      this.running.delete(worker);
      this.idle.push(worker);
      worker.unref();
      if (answer.error === undefined) pending?.resolve(answer.result!);
      else pending?.reject(new Error(`bcrypt: ${answer.error}`));
      this.dispatch();
    });
    // An uncaught error ends the thread: its 'exit' fails the job (without a listener it would throw here).
    worker.on('error', () => undefined);
    worker.on('exit', () => this.replace(worker));
    // Idle: after the listeners, since adding a 'message' listener refs the worker again (a process
    // whose application was never closed would then never exit).
    worker.unref();
    return worker;
  }

  /** A thread that exited (it should not) fails the job it held; a new one takes its place. */
  private replace(worker: Worker): void {
    const pending = this.running.get(worker);
    this.running.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    pending?.reject(new Error('svc: a password thread stopped'));
    if (this.closed) return;
    this.idle.push(this.spawn());
    this.dispatch();
  }
}

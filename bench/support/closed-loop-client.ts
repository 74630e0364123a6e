// Closed-loop load (load.ts) from a worker thread, for the benches that serve their application in
// their own process: a real client never shares the server's event loop.
import { Worker } from 'node:worker_threads';
import type { ClosedLoopJob } from './closed-loop.worker.js';
import type { Load } from './load.js';

export class ClosedLoopClient {
  private readonly worker = new Worker(new URL('./closed-loop.worker.ts', import.meta.url));

  /** 2xx answers per second over `seconds`; any other answer or error throws, as `throughput` does. */
  async throughput(load: Load, seconds: number): Promise<number> {
    const reply = new Promise<{ perSecond?: number; error?: string }>((resolve, reject) => {
      const onMessage = (message: { perSecond?: number; error?: string }) => {
        this.worker.off('error', onError);
        resolve(message);
      };
      const onError = (error: Error) => {
        this.worker.off('message', onMessage);
        reject(error);
      };
      this.worker.once('message', onMessage);
      this.worker.once('error', onError);
    });
    this.worker.postMessage({ load, seconds } satisfies ClosedLoopJob);
    const { perSecond, error } = await reply;
    if (perSecond === undefined) throw new Error(error);
    return perSecond;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

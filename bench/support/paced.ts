// Latency at a steady, paced rate well below saturation (an open-loop client in a worker thread).
import { Worker } from 'node:worker_threads';
import type { PacedJob, PacedResult } from './paced.worker.js';

export class PacedClient {
  private readonly worker = new Worker(new URL('./paced.worker.ts', import.meta.url));

  /** Every request must be answered 200; a failure makes the latencies meaningless and throws. */
  async run(job: PacedJob): Promise<PacedResult> {
    const reply = new Promise<PacedResult>((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
    });
    this.worker.postMessage(job);
    const result = await reply;
    if (result.failures.length > 0) throw new Error(`paced GET ${job.url}: ${result.failures.length} failures, first: ${result.failures[0]}`);
    return result;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

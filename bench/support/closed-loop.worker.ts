// The closed-loop load of load.ts in a worker thread (closed-loop-client.ts): for a server in the
// bench's own process, so that the client's work (autocannon parses every answer in JavaScript)
// runs on its own event loop and core instead of taking turns with the server it measures.
// In a worker, autocannon answers its raw counts (no latency summary): the rate is all it needs.
import autocannon from 'autocannon';
import { parentPort } from 'node:worker_threads';
import { answeredPerSecond, type Counts, type Load } from './load.js';

export interface ClosedLoopJob {
  load: Load;
  seconds: number;
}

parentPort!.on('message', async (job: ClosedLoopJob) => {
  try {
    const counts = (await autocannon({ ...job.load, duration: job.seconds })) as Counts;
    parentPort!.postMessage({ perSecond: answeredPerSecond(job.load, counts) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});

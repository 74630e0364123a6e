// The paced client of paced.ts, in a worker thread: with its own event loop, its clock stops when
// an answer arrives, not when the bench's main thread is next free. Open loop: request i is sent
// at start + i / rate whether or not earlier ones were answered (one keep-alive socket each while
// they overlap), so a slow server cannot slow the client down and hide its own slowness.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';

export interface PacedJob {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
}

export interface PacedResult {
  /** Milliseconds from sending each request to the end of its answer. */
  latencies: number[];
  /** Milliseconds each request left after its planned time (the client's own delay). */
  lateness: number[];
  failures: string[];
}

function get(agent: Agent, url: string, headers: Record<string, string>): Promise<{ status: number; ended: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ended: performance.now() }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function run(job: PacedJob): Promise<PacedResult> {
  const result: PacedResult = { latencies: [], lateness: [], failures: [] };
  const count = Math.round(job.rate * job.seconds);
  const start = performance.now() + 20;
  const inFlight: Promise<void>[] = [];
  // A fresh pool per run: a socket kept from the last run may be closing on the server's side
  // (keep-alive timeout), and a request written into it fails with ECONNRESET.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  for (let i = 0; i < count; i++) {
    const planned = start + (i * 1000) / job.rate;
    const wait = planned - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    result.lateness.push(sent - planned);
    inFlight.push(
      get(agent, job.url, job.headers).then(
        ({ status, ended }) => {
          if (status === 200) result.latencies.push(ended - sent);
          else result.failures.push(`status ${status}`);
        },
        (error: Error) => void result.failures.push(error.message),
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return result;
}

parentPort!.on('message', (job: PacedJob) => {
  run(job).then(
    (result) => parentPort!.postMessage(result),
    (error: Error) => parentPort!.postMessage({ latencies: [], lateness: [], failures: [String(error)] }),
  );
});

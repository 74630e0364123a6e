// bcrypt alone, in a process of its own (run by bcryptThroughput in bcrypt-limit.ts): `concurrency`
// loops of bcrypt.compare at `cost` for `seconds`, on the libuv thread pool this process was started
// with (UV_THREADPOOL_SIZE). Prints `started` when its window opens, then {"perSecond",
// "perSecondByLatency", "completed"} on stdout, as closedLoop (load.ts) measures the login slices.
// Argument: a JSON object { cost, concurrency, seconds }.
import bcrypt from 'bcrypt';
import { performance } from 'node:perf_hooks';

const { cost, concurrency, seconds } = JSON.parse(process.argv[2]) as { cost: number; concurrency: number; seconds: number };
const password = 'bench password 1';
const hash = await bcrypt.hash(password, cost);
await bcrypt.compare(password, hash); // loads and warms the binding before the window opens

// Counted like autocannon counts the login slice: the pipeline starts empty, completions within the window.
process.stdout.write('started\n');
const started = performance.now();
const deadline = started + seconds * 1000;
let completed = 0;
let latencies = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      if (!(await bcrypt.compare(password, hash))) throw new Error('bcrypt.compare refused the right password');
      const done = performance.now();
      if (done <= deadline) {
        completed++;
        latencies += done - sent;
      }
    }
  }),
);
const perSecondByLatency = (concurrency * 1000) / (latencies / completed);
process.stdout.write(`${JSON.stringify({ perSecond: completed / seconds, perSecondByLatency, completed })}\n`);

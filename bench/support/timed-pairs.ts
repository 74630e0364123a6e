// Two kinds of one request timed against each other (a timing-equality figure, 0.9..1.1): the
// client runs in a worker thread, so its clock stops when the response arrives, as a remote
// client's would, not when the server's event loop is next free.
import { Worker } from 'node:worker_threads';
import { type Figure, figureOf } from './figures.js';
import { ROUNDS } from './settings.js';
import { median } from './stats.js';

/** One request of a kind: its body and the status it must answer (any other stops the bench). */
export interface TimedKind {
  name: string;
  body: Record<string, string>;
  status: number;
}

export interface TimedComparison {
  figure: string;
  label: string;
  path: string;
  a: TimedKind;
  b: TimedKind;
  /**
   * Sent, untimed, before every timed request (a login that starts a challenge, say); the cookies
   * it sets go with the timed request, so every timed request meets the same fresh state.
   */
  before?: { path: string; body: Record<string, string>; status: number };
}

const BLOCK = 10;

/**
 * Blocks of each kind alternate (drift hits both alike); the first request of a block is not
 * counted, so every counted request follows one of its own kind, work left behind by it included.
 */
const CLIENT = `
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
async function post(url, body, expected, cookie) {
  const headers = { 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== expected) throw new Error(url + ' answered ' + response.status + ', expected ' + expected);
  return { elapsed, cookie: response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ') };
}
async function timed(base, comparison, kind) {
  const cookie = comparison.before ? (await post(base + comparison.before.path, comparison.before.body, comparison.before.status)).cookie : undefined;
  return (await post(base + comparison.path, comparison[kind].body, comparison[kind].status, cookie)).elapsed;
}
parentPort.on('message', async ({ base, comparison, samples, block }) => {
  try {
    const times = { a: [], b: [] };
    for (let i = 0; i < block * 2; i++) await timed(base, comparison, i % 2 ? 'b' : 'a');
    while (times.a.length < samples || times.b.length < samples) {
      for (const kind of Math.random() < 0.5 ? ['a', 'b'] : ['b', 'a']) {
        for (let i = 0; i < block; i++) {
          const elapsed = await timed(base, comparison, kind);
          if (i > 0) times[kind].push(elapsed);
        }
      }
    }
    parentPort.postMessage({ times });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

/** The worker that sends the requests; terminate it when done. */
export function timingClient(): Worker {
  return new Worker(CLIENT, { eval: true });
}

/** One round: both kinds, alternating in blocks; the median time of each (ms). */
async function round(client: Worker, base: string, comparison: TimedComparison, samples: number): Promise<{ a: number; b: number }> {
  const reply = new Promise<{ times?: Record<'a' | 'b', number[]>; error?: string }>((resolve) => client.once('message', resolve));
  client.postMessage({ base, comparison, samples, block: BLOCK });
  const { times, error } = await reply;
  if (!times) throw new Error(error);
  return { a: median(times.a), b: median(times.b) };
}

/** ROUNDS rounds of `samples` per kind in all; the figure (a ÷ b, target 0.9..1.1) is the median of the rounds' ratios. */
export async function compareTimings(client: Worker, base: string, comparison: TimedComparison, samples: number): Promise<Figure> {
  const a: number[] = [];
  const b: number[] = [];
  const perRound = Math.ceil(samples / ROUNDS);
  for (let index = 0; index < ROUNDS; index++) {
    const medians = await round(client, base, comparison, perRound);
    a.push(medians.a);
    b.push(medians.b);
  }
  return figureOf(
    comparison.figure,
    { between: [0.9, 1.1] },
    { label: comparison.a.name, unit: 'ms', rounds: a },
    { label: comparison.b.name, unit: 'ms', rounds: b },
    `${comparison.label}, at least ${perRound} timed requests per kind and round`,
  );
}

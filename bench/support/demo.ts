// The built bench app (bench/app: the demo as `npm start` serves it, plus the comparison routes) in
// its own process on a fresh PostgreSQL database, as the benches drive it: from outside, over loopback HTTP.
import { fileURLToPath } from 'node:url';
import { runDemo } from '../../apps/demo/test/demo/demo-process.js';
import { reserveLoopbackPort } from '../../test/support/listen.js';
import { freshPostgres } from './postgres.js';

/** A random-looking secret that passes svc's placeholder check; the bench's tokens die with the run. */
export const BENCH_SECRET = 'bN4xQ7pV2kR9mW3tY6hC8jF1gD5sLzAe';
export const PASSWORD = 'bench password 1';

const BENCH_APP = fileURLToPath(new URL('../../dist/bench/app/main.js', import.meta.url));

export interface BenchDemo {
  baseUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the bench app (the demo with `GET /bench/users/:id` and `GET /bench/naive/me`), rate limiting off, the libuv thread pool the bench
 * uses (BENCH_THREADPOOL_SIZE, default 4 as Node's) unless `env` says otherwise.
 */
export async function startDemo(env: Record<string, string> = {}): Promise<BenchDemo> {
  const database = await freshPostgres();
  const port = await reserveLoopbackPort();
  const demo = await runDemo({
    PORT: String(port),
    DATABASE_URL: database.url,
    AUTH_SECRET: BENCH_SECRET,
    COOKIE_SECURE: 'false',
    RATE_LIMIT_BACKEND: 'off',
    UV_THREADPOOL_SIZE: threadPoolSize(),
    ...env,
  }, BENCH_APP);
  if ('exitCode' in demo) {
    await database.drop();
    throw new Error(`the bench app exited (${demo.exitCode}): ${demo.stderr}`);
  }
  return {
    baseUrl: demo.baseUrl,
    databaseUrl: database.url,
    stop: async () => {
      await demo.stop();
      await database.drop();
    },
  };
}

export function threadPoolSize(): string {
  return process.env.BENCH_THREADPOOL_SIZE ?? process.env.UV_THREADPOOL_SIZE ?? '4';
}

/** POSTs JSON and checks the status; returns the response. */
export async function post(url: string, body: unknown, expected: number, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status !== expected) throw new Error(`POST ${url} answered ${response.status}, expected ${expected}: ${await response.text()}`);
  return response;
}

/** `name=value` of the response's Set-Cookie named `name`. */
export function cookieOf(response: Response, name: string): string {
  const found = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in the response`);
  return found.split(';')[0];
}

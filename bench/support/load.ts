// Closed-loop load with autocannon: every connection sends its next request as soon as the last
// one is answered, so the figure is the server's saturated throughput.
import autocannon from 'autocannon';

export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** For request chains (autocannon's setupRequest/onResponse): replaces method, headers and body. */
  requests?: autocannon.Request[];
}

/** 2xx answers per second over `seconds`; any other answer or error makes the figure meaningless and throws. */
export async function throughput(load: Load, seconds: number): Promise<number> {
  return (await closedLoop(load, seconds)).perSecond;
}

export interface ClosedLoopResult {
  /** 2xx answers counted in the window, per second. */
  perSecond: number;
  /**
   * Little's law: connections ÷ mean latency. For slow requests (a login is one bcrypt), where a
   * window holds few completions and they come in waves, the count moves by a whole wave from
   * one window to the next; this estimate has no such step.
   */
  perSecondByLatency: number;
  completed: number;
}

export async function closedLoop(load: Load, seconds: number): Promise<ClosedLoopResult> {
  const result = await autocannon({ ...load, duration: seconds });
  return { perSecond: answeredPerSecond(load, result), perSecondByLatency: (load.connections * 1000) / result.latency.mean, completed: result['2xx'] };
}

/** What autocannon's result counts, in the main thread or (unaggregated) in a worker. */
export type Counts = Pick<autocannon.Result, '2xx' | 'non2xx' | 'errors' | 'timeouts' | 'duration'>;

/** 2xx answers per second; any other answer or error makes the figure meaningless and throws. */
export function answeredPerSecond(load: Load, result: Counts): number {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${load.method ?? 'GET'} ${load.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result['2xx'] / result.duration;
}

/** A short run first: JIT, connection pools and prepared statements warm before anything is measured. */
export async function warmUp(load: Load, seconds = 1.5): Promise<void> {
  await throughput(load, seconds);
}

export function json(url: string, body: unknown, connections: number, headers: Record<string, string> = {}): Load {
  return { url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), connections };
}

import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { SVC_LOGGER } from '../config/auth.constants.js';
import { describeError } from '../errors/describe-error.js';

/**
 * Runs work once the response has been sent (observers, the forgot-password lookup), so that its
 * duration never shows in the response time and its failure never changes the response. A failure
 * is logged to `svc` (name and message only). `drain()` resolves when everything scheduled so far
 * has run: shutdown waits on it, and so can a test that asserts something did not happen.
 */
@Injectable()
export class AfterResponse implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly pending = new Set<Promise<void>>();

  run(request: Request, label: string, work: () => unknown): void {
    const done = responseSent(request)
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => this.logger.error(`${label} failed after the response: ${describeError(error)}`),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once every piece of work scheduled so far (and any it scheduled in turn) has run. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.drain();
  }
}

/** Resolves on the turn after the response was sent, or after the client went away. */
function responseSent(request: Request): Promise<void> {
  const response = request.res;
  return new Promise((resolve) => {
    const start = () => setImmediate(resolve);
    // 'close' follows 'finish' once the response is sent (or the client went away).
    if (!response || response.closed) start();
    else response.once('close', start);
  });
}

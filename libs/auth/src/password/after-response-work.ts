import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { SVC_LOGGER } from '../auth.constants.js';
import { describeError } from '../errors/describe-error.js';

/**
 * Runs work once the response has been sent, so its duration cannot show in the response time.
 * A failure is logged to `svc` (name and message only); shutdown waits for unfinished work.
 */
@Injectable()
export class AfterResponseWork implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly pending = new Set<Promise<void>>();

  run(request: Request, label: string, work: () => Promise<void>): void {
    const done = this.afterResponse(request)
      .then(work)
      .catch((error: unknown) => this.logger.error(`${label} failed after the response: ${describeError(error)}`))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  async beforeApplicationShutdown(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    // Events the work published are delivered on the next turn: let them out before listeners go.
    await new Promise((resolve) => setImmediate(resolve));
  }

  private afterResponse(request: Request): Promise<void> {
    const response = request.res;
    return new Promise((resolve) => {
      const start = () => setImmediate(resolve);
      // 'close' follows 'finish' once the response is sent (or the client went away).
      if (!response || response.closed) start();
      else response.once('close', start);
    });
  }
}

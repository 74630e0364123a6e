import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';

/** How long a client may take to send a request's headers and its whole request, in seconds. */
export interface RequestTimeouts {
  headersSeconds: number;
  requestSeconds: number;
}

/**
 * Express, on an HTTP server that closes a connection whose request is not complete in time (OWASP
 * Denial of Service Cheat Sheet: slow clients): Node waits 300 s for a request body by default, so
 * a client sending one byte now and then would hold a socket that long. Node checks the limits on
 * a timer of its own (`connectionsCheckingInterval`, 30 s by default), set here to a second, so a
 * limit is kept to the second rather than to half a minute.
 */
export class TimedExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: RequestTimeouts) {
    super(express());
  }

  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    super.initHttpServer(options);
    if (options?.httpsOptions) return;
    this.setHttpServer(
      createServer(
        { headersTimeout: this.timeouts.headersSeconds * 1000, requestTimeout: this.timeouts.requestSeconds * 1000, connectionsCheckingInterval: 1000 },
        this.getInstance(),
      ),
    );
  }
}

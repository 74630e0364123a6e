import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const LOOPBACK = '127.0.0.1';

/**
 * An HTTP server on 127.0.0.1 that can be stopped and started again on the same port (a provider
 * that goes down and comes back), and whose request handler can be swapped while it listens (a
 * provider restarted with new keys or clients, without a moment of downtime).
 */
export class LoopbackServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly stopHooks = new Set<() => void>();
  private handler: RequestListener;
  private boundPort = 0;

  private constructor(handler: RequestListener) {
    this.handler = handler;
    this.server = createServer((request, response) => this.handler(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on `port` (0: any free port) and resolves once it accepts connections. */
  static async listen(handler: RequestListener, port = 0): Promise<LoopbackServer> {
    const server = new LoopbackServer(handler);
    server.boundPort = port;
    await server.start();
    return server;
  }

  get port(): number {
    return this.boundPort;
  }

  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  get origin(): string {
    return `http://${LOOPBACK}:${this.boundPort}`;
  }

  get running(): boolean {
    return this.server.listening;
  }

  setHandler(handler: RequestListener): void {
    this.handler = handler;
  }

  /** Runs `hook` when the server stops (to cancel timers of delayed answers). */
  onStop(hook: () => void): () => void {
    this.stopHooks.add(hook);
    return () => this.stopHooks.delete(hook);
  }

  /** Listens again on the same port. */
  start(): Promise<void> {
    if (this.server.listening) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.server.once('error', failed);
      this.server.listen(this.boundPort, LOOPBACK, () => {
        this.server.off('error', failed);
        this.boundPort = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Stops listening and drops every open connection: new requests get ECONNREFUSED. */
  stop(): Promise<void> {
    for (const hook of this.stopHooks) hook();
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }
}

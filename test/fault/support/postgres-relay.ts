import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that the test controls: `cut()` destroys every connection
 * and refuses new ones (a stopped server, as the application sees it), `restore()` listens again
 * on the same port (the server is back).
 */
export class PostgresRelay {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private boundPort = 0;

  private constructor() {}

  static async start(): Promise<PostgresRelay> {
    const relay = new PostgresRelay();
    await relay.listen(0);
    return relay;
  }

  get port(): number {
    return this.boundPort;
  }

  /** A connection URL to `database` through the relay. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  close(): Promise<void> {
    return this.cut();
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((incoming) => {
      const outgoing = connect(5432, '127.0.0.1');
      for (const socket of [incoming, outgoing]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          incoming.destroy();
          outgoing.destroy();
        });
      }
      incoming.pipe(outgoing).pipe(incoming);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.server = server;
  }
}

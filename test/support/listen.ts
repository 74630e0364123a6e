import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Makes `server` listen on a free loopback port and returns its base URL (requests can then overlap). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Where reserved ports are drawn from: below the kernel's ephemeral range, which `listen(0)` and outgoing connections take their ports from. */
const RESERVED_PORTS = { from: 20_000, to: 32_000 };

/**
 * A free port on 127.0.0.1, released again at once: an application or process under test can be
 * given its own URL (its `baseUrl`, a redirect_uri) before it listens there. Drawn at random below
 * the ephemeral range (Linux: 32768..60999), so that no `listen(0)` and no outgoing connection of
 * this or another process takes it meanwhile; a port found in use is passed over.
 */
export async function reserveLoopbackPort(): Promise<number> {
  for (;;) {
    const port = RESERVED_PORTS.from + randomInt(RESERVED_PORTS.to - RESERVED_PORTS.from);
    if (await isFree(port)) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

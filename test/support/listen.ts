import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Makes `server` listen on a free loopback port and returns its base URL (requests can then overlap). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A free port on 127.0.0.1, released again at once: an application or process under test can be
 * given its own URL (its `baseUrl`, a redirect_uri) before it listens there.
 */
export async function reserveLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

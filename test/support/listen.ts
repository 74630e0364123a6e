import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Makes `server` listen on a free loopback port and returns its base URL (requests can then overlap). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

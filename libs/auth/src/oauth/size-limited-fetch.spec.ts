import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { isResponseTooLarge, MAX_PROVIDER_RESPONSE_BYTES, ProviderResponseTooLarge, sizeLimitedFetch } from './size-limited-fetch.js';

const LIMIT = MAX_PROVIDER_RESPONSE_BYTES;

/** Answers `/<bytes>` with that many bytes; `?chunked` without Content-Length; `?gzip` compressed. */
function answer(url: URL): { body: Buffer; headers: Record<string, string | number> } {
  const bytes = Number(url.pathname.slice(1));
  const plain = Buffer.alloc(bytes, 'a');
  const body = url.searchParams.has('gzip') ? gzipSync(plain) : plain;
  const headers: Record<string, string | number> = { 'content-type': 'application/json' };
  if (url.searchParams.has('gzip')) headers['content-encoding'] = 'gzip';
  if (!url.searchParams.has('chunked')) headers['content-length'] = body.length;
  return { body, headers };
}

/** What `/endless` sent before its client went away. */
let endless: { sent: number; closed: Promise<void> } | undefined;

/** An answer that never ends: 64 KiB chunks as fast as the client reads them, until it hangs up. */
function streamForever(response: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let closedNow!: () => void;
  const state = { sent: 0, closed: new Promise<void>((resolve) => (closedNow = resolve)) };
  endless = state;
  let open = true;
  response.on('close', () => {
    open = false;
    closedNow();
  });
  response.writeHead(200, { 'content-type': 'application/json' });
  const pump = (): void => {
    while (open) {
      state.sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

describe('sizeLimitedFetch', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.on('error', () => undefined);
      if (request.url === '/endless') return streamForever(response);
      const { body, headers } = answer(new URL(request.url ?? '/', 'http://localhost'));
      response.on('error', () => undefined);
      response.writeHead(200, headers);
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string) => sizeLimitedFetch(`${origin}${path}`, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' });

  it('reads an answer of exactly the limit, declared or chunked', async () => {
    expect((await (await get(`/${LIMIT}`)).arrayBuffer()).byteLength).toBe(LIMIT);
    expect((await (await get(`/${LIMIT}?chunked`)).arrayBuffer()).byteLength).toBe(LIMIT);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    await expect(get(`/${LIMIT + 1}`)).rejects.toBeInstanceOf(ProviderResponseTooLarge);
  });

  it('fails the body of a chunked answer at the first byte over the limit', async () => {
    const response = await get(`/${LIMIT + 1}?chunked`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toBeInstanceOf(ProviderResponseTooLarge);
  });

  it('hangs up on an answer that never ends: what the provider could send before that stays near the limit, so memory stays flat', async () => {
    const response = await get('/endless');
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(ProviderResponseTooLarge);
    await endless!.closed;
    // The limit plus what the sockets and streams buffer on the way, never the provider's whole answer.
    expect(endless!.sent).toBeGreaterThan(LIMIT);
    expect(endless!.sent).toBeLessThan(LIMIT + 8 * 1024 * 1024);
  });

  it('measures a compressed answer by what it inflates to', async () => {
    const response = await get(`/${8 * LIMIT}?gzip`);
    await expect(response.json()).rejects.toBeInstanceOf(ProviderResponseTooLarge);
  });

  it('finds the refusal under the errors that wrap it', () => {
    const wrapped = new Error('parsing error', { cause: new Error('failed to parse', { cause: new ProviderResponseTooLarge() }) });
    expect(isResponseTooLarge(wrapped)).toBe(true);
    expect(isResponseTooLarge(new Error('other', { cause: 'text' }))).toBe(false);
  });
});

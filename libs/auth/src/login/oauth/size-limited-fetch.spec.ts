import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
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

describe('sizeLimitedFetch', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
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

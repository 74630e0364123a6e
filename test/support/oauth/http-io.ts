import type { IncomingMessage, ServerResponse } from 'node:http';

/** The whole request body as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A form-encoded body as a plain object (the last value wins for a repeated name). */
export function formParams(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** How an endpoint sends its JSON answer: `sendJson`, or an oversized sender. */
export type JsonSender = (response: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    // RFC 6749 §5.1: token responses must not be cached; harmless on the other endpoints.
    'Cache-Control': 'no-store',
    ...headers,
  });
  response.end(text);
}

export function sendText(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

export function sendRedirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { Location: location, 'Content-Length': 0 });
  response.end();
}

const PADDING_CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Sends the JSON `body` with padding that brings it to `bytes` bytes (an object gets a `padding`
 * member of `x`s, an array a last element of them), written
 * only when the connection has room for more (so no faster than the client reads). Resolves when
 * the answer is over: every byte handed over, or the client closed the connection first.
 */
export async function streamPaddedJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  bytes: number,
  declareLength: boolean,
): Promise<{ written: number; completed: boolean }> {
  const padded = Array.isArray(body) ? JSON.stringify([...(body as unknown[]), '']) : JSON.stringify({ ...(body as object), padding: '' });
  const head = Buffer.from(padded.slice(0, -2));
  const tail = Buffer.from(padded.slice(-2));
  let fill = Math.max(0, bytes - head.length - tail.length);
  const length = head.length + fill + tail.length;
  // A client that hangs up makes later writes fail: that is the outcome, not an error of the test.
  response.on('error', () => undefined);
  let isClosed = false;
  const closed = new Promise<void>((resolve) => response.once('close', () => resolve(void (isClosed = true))));
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(declareLength ? { 'Content-Length': String(length) } : {}),
    ...headers,
  });
  let written = 0;
  const write = async (chunk: Buffer): Promise<boolean> => {
    if (isClosed) return false;
    written += chunk.length;
    if (!response.write(chunk)) await Promise.race([new Promise((resolve) => response.once('drain', resolve)), closed]);
    return !isClosed;
  };
  let open = await write(head);
  while (open && fill > 0) {
    const chunk = fill >= PADDING_CHUNK.length ? PADDING_CHUNK : PADDING_CHUNK.subarray(0, fill);
    fill -= chunk.length;
    open = await write(chunk);
  }
  if (open && (await write(tail))) response.end();
  await closed;
  return { written, completed: response.writableFinished };
}

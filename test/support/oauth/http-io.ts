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

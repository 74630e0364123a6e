import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';

/** What a client sees of one answer. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined. */
  body: Record<string, unknown> | undefined;
}

/**
 * POSTs a JSON body to `baseUrl` from a socket bound to `localAddress` (any 127.0.0.0/8 address
 * reaches an application listening on 127.0.0.1): each address is another client to the limiter,
 * with no forwarded header involved. A new connection per request (no keep-alive).
 */
export function postFrom(localAddress: string, baseUrl: string, path: string, body: unknown): Promise<Answer> {
  const url = new URL(baseUrl);
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  return new Promise((resolve, reject) => {
    const client = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path, localAddress, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) });
        });
      },
    );
    client.on('error', reject);
    client.end(payload);
  });
}

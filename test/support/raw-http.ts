import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';

/** A request exactly as the test wants it on the wire: any method, path, header and body bytes. */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** Send the body with `Transfer-Encoding: chunked` in pieces of this many bytes (no Content-Length). */
  chunkBytes?: number;
  /** Fail when no complete response arrives within this time (default 10 s). */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** The `Set-Cookie` lines of the response. */
  setCookies: string[];
}

/**
 * Sends one request on a new connection (no keep-alive: an early error answer cannot poison the
 * next request) and reads the whole response.
 */
export function sendRaw(baseUrl: string, raw: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = raw.body === undefined ? undefined : Buffer.isBuffer(raw.body) ? raw.body : Buffer.from(raw.body, 'utf8');
  const headers: Record<string, string | string[]> = { ...raw.headers };
  const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  if (body && !raw.chunkBytes && !hasLength) headers['Content-Length'] = String(body.length);
  const timeoutMs = raw.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.destroy();
      reject(new Error(`no response to ${raw.method} ${raw.path} within ${timeoutMs} ms`));
    }, timeoutMs);
    const client = httpRequest({ host: url.hostname, port: url.port, method: raw.method, path: raw.path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        const setCookie = response.headers['set-cookie'];
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: parseJson(text), setCookies: setCookie ?? [] });
      });
    });
    // The server may answer and close before reading a whole body: the answer still counts.
    client.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (body && raw.chunkBytes) {
      for (let offset = 0; offset < body.length; offset += raw.chunkBytes) client.write(body.subarray(offset, offset + raw.chunkBytes));
      client.end();
    } else {
      client.end(body);
    }
  });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The value a response's Set-Cookie gives the cookie `name`, decoded, or undefined. */
export function cookieOf(response: RawResponse, name: string): string | undefined {
  const line = response.setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  return line === undefined ? undefined : decodeURIComponent(line.slice(name.length + 1).split(';')[0]);
}

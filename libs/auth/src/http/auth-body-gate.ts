import { parse as parseContentType } from 'content-type';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AuthError } from '../errors/auth.error.js';
import type { AuthErrorCode } from '../errors/error-codes.js';

/** Headers on every auth response: credentials are never cached, URLs never leak (docs/decisions/0005-http-rules.md). */
function setAuthResponseHeaders(response: Response): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * The first handler of every request under the prefix, in front of the application's body parsers
 * (docs/decisions/0005-http-rules.md). It sets the auth response headers and reads the body itself, strictly:
 * `application/json` in UTF-8 only, no `Content-Encoding` (a compressed body is refused, never
 * inflated), at most `bodyLimitBytes` as received (chunked bodies included). The parsed body goes
 * to `request.body`; the application's parsers then see a finished request and leave it alone.
 * Every refusal is answered here with the error body of the library.
 */
export function authBodyGate(bodyLimitBytes: number): RequestHandler {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return (request: Request, response: Response, next: NextFunction): void => {
    response.removeHeader('X-Powered-By');
    setAuthResponseHeaders(response);
    if (!hasBody(request)) return next();
    const refusal = headerRefusal(request, bodyLimitBytes);
    if (refusal) return refuse(response, refusal, { closeConnection: true });
    readBody(request, bodyLimitBytes).then(
      (bytes) => {
        if (bytes === null) return refuse(response, 'PAYLOAD_TOO_LARGE', { closeConnection: true });
        let body: unknown;
        try {
          // RFC 8259 §8.1: JSON text is UTF-8; bytes that are not are refused, not replaced by U+FFFD.
          body = JSON.parse(utf8.decode(bytes));
        } catch {
          return refuse(response, 'MALFORMED_JSON');
        }
        request.body = body;
        next();
      },
      () => refuse(response, 'MALFORMED_JSON', { closeConnection: true }),
    );
  };
}

/** RFC 9112 §6.3: a request has a body when it says so with Transfer-Encoding or a non-zero Content-Length. */
function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function headerRefusal(request: Request, bodyLimitBytes: number): AuthErrorCode | undefined {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return 'UNSUPPORTED_MEDIA_TYPE';
  const contentType = parseContentType(request.headers['content-type'] ?? '');
  if (contentType.type !== 'application/json') return 'UNSUPPORTED_MEDIA_TYPE';
  const charset = contentType.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8') return 'UNSUPPORTED_MEDIA_TYPE';
  if (Number(request.headers['content-length'] ?? 0) > bodyLimitBytes) return 'PAYLOAD_TOO_LARGE';
  return undefined;
}

/** The body's bytes, or null as soon as more than `limit` arrived (the rest is not read). */
function readBody(request: Request, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        cleanup();
        request.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}

function refuse(response: Response, code: AuthErrorCode, options: { closeConnection?: boolean } = {}): void {
  if (response.headersSent) return;
  const error = new AuthError(code);
  // The unread rest of the body would otherwise be taken for the next request on this connection.
  if (options.closeConnection) response.setHeader('Connection', 'close');
  response.status(error.getStatus()).json(error.getResponse());
}

import { expect } from '@jest/globals';
import { STATUS_CODES } from 'node:http';
import { AUTH_ERRORS } from '#svc/auth';
import { STACK_FRAME } from '../../support/capturing-logger.js';
import type { RawRequest, RawResponse } from '../../support/raw-http.js';
import type { FuzzTarget } from './fuzz-target.js';

/** A request and what it got, in a form a failure message can show. */
export function describeExchange(request: RawRequest, response?: RawResponse): string {
  const body = request.body === undefined ? '' : Buffer.from(request.body).toString('utf8');
  const shownBody = body.length > 400 ? `${JSON.stringify(body.slice(0, 400))}... (${body.length} chars)` : JSON.stringify(body);
  const sent = `${request.method} ${request.path} ${JSON.stringify(request.headers ?? {})}${request.chunkBytes ? ' chunked' : ''} body=${shownBody}`;
  if (!response) return sent;
  const text = response.text.length > 600 ? `${response.text.slice(0, 600)}...` : response.text;
  return `${sent}\n  -> ${response.status} ${text}`;
}

/** docs/decisions/0004-errors.md: `{ statusCode, error, message, code }`, `code` one of the library's, `statusCode` the HTTP status. */
export function expectErrorBody(request: RawRequest, response: RawResponse): void {
  const body = response.json as Record<string, unknown> | undefined;
  const problems: string[] = [];
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) problems.push('body is not a JSON object');
  else {
    const keys = Object.keys(body).sort();
    if (keys.join() !== 'code,error,message,statusCode') problems.push(`keys are ${keys.join(', ')}`);
    if (body.statusCode !== response.status) problems.push(`statusCode ${String(body.statusCode)} is not the HTTP status`);
    if (body.error !== STATUS_CODES[response.status]) problems.push(`error ${JSON.stringify(body.error)} is not ${STATUS_CODES[response.status]}`);
    const message = body.message;
    const messageOk = typeof message === 'string' || (Array.isArray(message) && message.length > 0 && message.every((line) => typeof line === 'string'));
    if (!messageOk) problems.push('message is neither a string nor a list of strings');
    if (typeof body.code !== 'string' || !Object.hasOwn(AUTH_ERRORS, body.code)) problems.push(`code ${JSON.stringify(body.code)} is not one of AUTH_ERRORS`);
  }
  if (problems.length > 0) throw new Error(`error response without the { statusCode, error, message, code } body (${problems.join('; ')}):\n${describeExchange(request, response)}`);
}

/** docs/decisions/0024-logging.md: no stack trace in a response body or in any log line. */
export function expectNoStackTrace(target: FuzzTarget, request: RawRequest, response: RawResponse): void {
  if (STACK_FRAME.test(response.text.replace(/\\n/g, '\n'))) throw new Error(`stack trace in the response body:\n${describeExchange(request, response)}`);
  const logged = target.logger.withStackFrames();
  if (logged.length > 0) throw new Error(`stack trace in the log after:\n${describeExchange(request, response)}\nlog line:\n${logged[0].text.slice(0, 1500)}`);
}

export interface CheckOptions {
  /** The request carries a credential of the seed account: renew it if the request may have used it up. */
  usesSeed?: boolean;
}

/**
 * Sends `request` and checks what every response of a library route must satisfy while no backend
 * is down: no 5xx, the error body on errors, no stack trace in the body or the log, and a refused
 * (4xx) request leaves every credential table as it was.
 */
export async function sendAndCheck(target: FuzzTarget, request: RawRequest, options: CheckOptions = {}): Promise<RawResponse> {
  const before = await target.rows();
  let response: RawResponse;
  try {
    response = await target.send(request);
  } catch (error) {
    throw new Error(`no HTTP response (${(error as Error).message}):\n${describeExchange(request)}`);
  }
  try {
    if (response.status >= 500) throw new Error(`server error:\n${describeExchange(request, response)}`);
    if (response.status >= 400) expectErrorBody(request, response);
    expectNoStackTrace(target, request, response);
    if (response.status >= 400) await expectUnchanged(target, before, `a refused request changed the database:\n${describeExchange(request, response)}`);
  } finally {
    if (options.usesSeed && response.status < 400) await target.renewSeed();
  }
  return response;
}

/** The credential tables hold exactly the rows of `before`. */
export async function expectUnchanged(target: FuzzTarget, before: Awaited<ReturnType<FuzzTarget['rows']>>, context: string): Promise<void> {
  const after = await target.rows();
  // Rows of plain JSON values: the same text is the same rows, and the deep comparison (a
  // millisecond or more a request) is left to show a difference.
  if (JSON.stringify(after) === JSON.stringify(before)) return;
  try {
    expect(after).toEqual(before);
  } catch (error) {
    throw new Error(`${context}\n${(error as Error).message}`);
  }
}

/** Throws unless the response is `status` with `code` (on top of what `sendAndCheck` checked). */
export function expectRefusal(request: RawRequest, response: RawResponse, status: number, code: keyof typeof AUTH_ERRORS): void {
  const body = response.json as { code?: unknown } | undefined;
  if (response.status !== status || body?.code !== code) {
    throw new Error(`expected ${status} ${code}:\n${describeExchange(request, response)}`);
  }
}

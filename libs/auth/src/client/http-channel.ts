import { isServerErrorCode } from './error-codes.js';
import { type ReauthMethod, SvcClientError } from './svc-client-error.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  /** Under the prefix: `/login`. */
  path: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** The access token to present (`Authorization: Bearer`, RFC 6750 §2.1). */
  bearer?: string | null;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  headers: { get(name: string): string | null };
}

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The one place the client meets `fetch`: builds the URL under the prefix, sends JSON, presents a
 * bearer token, marks native clients, and reads the answer. Cookies travel with `credentials:
 * 'include'` (the session, refresh and challenge cookies are HttpOnly: the client never reads them).
 */
export class HttpChannel {
  constructor(
    private readonly fetchFunction: FetchFunction,
    private readonly base: string,
    private readonly native: boolean,
  ) {}

  url(path: string, query?: HttpRequest['query']): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const text = search.toString();
    return `${this.base}${path}${text ? `?${text}` : ''}`;
  }

  async send(request: HttpRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.bearer) headers.Authorization = `Bearer ${request.bearer}`;
    if (this.native) headers['X-Svc-Client'] = 'native';
    let response: Response;
    try {
      response = await this.fetchFunction(this.url(request.path, request.query), {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        credentials: 'include',
      });
    } catch {
      throw new SvcClientError('NETWORK_ERROR', 0, 'The server could not be reached');
    }
    return { status: response.status, headers: response.headers, body: await jsonOf(response) };
  }
}

async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The error an answer outside 2xx stands for: its svc `code`, or `UNEXPECTED_RESPONSE` when it is no svc body. */
export function errorOf(answer: HttpAnswer): SvcClientError {
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  const code = body.code;
  if (!isServerErrorCode(code)) return new SvcClientError('UNEXPECTED_RESPONSE', answer.status, `Unexpected answer (HTTP ${answer.status})`);
  const problems = Array.isArray(body.message) ? body.message.map(String) : undefined;
  const message = problems ? problems.join('; ') : typeof body.message === 'string' ? body.message : code;
  if (code === 'REAUTH_REQUIRED') {
    const methods = Array.isArray(body.methods) ? (body.methods.filter((one) => typeof one === 'string') as ReauthMethod[]) : [];
    return new SvcClientError(code, answer.status, message, { methods });
  }
  if (code === 'RATE_LIMITED') {
    const seconds = Number(answer.headers.get('retry-after'));
    return new SvcClientError(code, answer.status, message, { retryAfterSeconds: Number.isFinite(seconds) && seconds >= 0 ? seconds : null });
  }
  if (code === 'VALIDATION_FAILED') return new SvcClientError(code, answer.status, message, { problems: problems ?? [message] });
  return new SvcClientError(code, answer.status, message);
}

/** The body of a 2xx answer, or the error of any other. */
export function bodyOf<T>(answer: HttpAnswer): T {
  if (answer.status < 200 || answer.status >= 300) throw errorOf(answer);
  return answer.body as T;
}

export function codeOf(answer: HttpAnswer): string | undefined {
  const body = answer.body as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

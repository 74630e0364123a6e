/** What one request sends: a JSON body and the credentials a browser or API client would. */
export interface Send {
  body?: unknown;
  /** Cookies by name (the session cookie, the refresh cookie). */
  cookies?: Record<string, string>;
  bearer?: string;
  /** The client address, for a demo that trusts X-Forwarded-For (TRUSTED_IP_HEADER). */
  forwardedFor?: string;
}

export interface Received {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
  /** The cookies the response set, by name (an empty value is a deletion). */
  cookies: Record<string, string>;
}

/** One HTTP request to an instance, with no cookie jar: the test carries credentials from one instance to the other by hand. */
export async function send(baseUrl: string, method: string, path: string, options: Send = {}): Promise<Received> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.cookies) headers.Cookie = Object.entries(options.cookies).map(([name, value]) => `${name}=${value}`).join('; ');
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  if (options.forwardedFor) headers['X-Forwarded-For'] = options.forwardedFor;
  const response = await fetch(baseUrl + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), redirect: 'manual' });
  const cookies: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    cookies[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  }
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers, cookies };
}

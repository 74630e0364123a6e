/**
 * A client of a demo process with a cookie jar, as curl -c/-b would be: the demo's Secure cookies
 * are sent to 127.0.0.1 over http, as curl does, and redirects are answered, not followed.
 */
export function cookieJarClient(baseUrl: string) {
  const jar = new Map<string, string>();
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
}

/** What OAuth e2e tests read off the application's answers and tables. */

/** An application that shows the rows of the library's tables. */
export interface RowsOf {
  rows(table: 'users' | 'oauth_accounts' | 'sessions' | 'refresh_tokens'): Promise<Record<string, unknown>[]>;
}

/** Every row the library writes for a login, for "nothing was written" checks. */
export async function writtenRows(app: RowsOf): Promise<number> {
  let total = 0;
  for (const table of ['users', 'oauth_accounts', 'sessions', 'refresh_tokens'] as const) total += (await app.rows(table)).length;
  return total;
}

/** The cookies a response sets, by name, with their attributes. */
export function setCookies(response: Response): Record<string, { value: string; attributes: string[] }> {
  const cookies: Record<string, { value: string; attributes: string[] }> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const index = pair.indexOf('=');
    cookies[pair.slice(0, index)] = { value: decodeURIComponent(pair.slice(index + 1)), attributes };
  }
  return cookies;
}

/** A credential cookie (session or refresh) that a response set, if any. */
export function credentialCookieOf(response: Response): string | undefined {
  const cookies = setCookies(response);
  for (const name of ['svc_session', 'svc_refresh']) {
    const cookie = cookies[name];
    if (cookie && cookie.value !== '') return name;
  }
  return undefined;
}

/** The JSON body of an error answer. */
export async function errorOf(response: Response): Promise<{ status: number; code: string; body: Record<string, unknown> }> {
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, code: String(body.code), body };
}

import type { Received, Send } from './http.js';

export type PasswordStrategy = 'session' | 'jwt';

/** What a client keeps after signup or login: the session cookie, or the access token and refresh cookie. */
export type Credential = Required<Pick<Send, 'cookies'>> & Pick<Send, 'bearer'>;

export function credentialOf(strategy: PasswordStrategy, response: Received): Credential {
  if (strategy === 'session') return { cookies: { svc_session: cookie(response, 'svc_session') } };
  return { bearer: String(response.body?.access_token), cookies: { svc_refresh: cookie(response, 'svc_refresh') } };
}

function cookie(response: Received, name: string): string {
  const value = response.cookies[name];
  if (!value) throw new Error(`no ${name} cookie in a ${response.status} response: ${JSON.stringify(response.body)}`);
  return value;
}

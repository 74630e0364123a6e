// Accounts on a running demo, made through its public API.
import { cookieOf, PASSWORD, post } from './demo.js';

export interface Account {
  id: string;
  email: string;
  /** Headers that authenticate GET /auth/me: the session cookie, or the bearer access token. */
  meHeaders: Record<string, string>;
}

/** Signs up `email` (signup logs in) and returns what authenticates it. */
export async function signUp(baseUrl: string, email: string, strategy: 'session' | 'jwt'): Promise<Account> {
  const signup = await post(`${baseUrl}/auth/signup`, { email, password: PASSWORD }, 201);
  const meHeaders: Record<string, string> =
    strategy === 'session' ? { cookie: cookieOf(signup, 'svc_session') } : { authorization: `Bearer ${((await signup.json()) as { access_token: string }).access_token}` };
  const me = await fetch(`${baseUrl}/auth/me`, { headers: meHeaders });
  if (me.status !== 200) throw new Error(`GET /auth/me answered ${me.status}`);
  return { id: ((await me.json()) as { id: string }).id, email, meHeaders };
}

/** The refresh cookies of `count` new jwt logins of `email` (each starts a family of its own). */
export async function refreshCookies(baseUrl: string, email: string, count: number): Promise<string[]> {
  const logins = Array.from({ length: count }, () => post(`${baseUrl}/auth/login`, { email, password: PASSWORD }, 200));
  return (await Promise.all(logins)).map((response) => cookieOf(response, 'svc_refresh'));
}

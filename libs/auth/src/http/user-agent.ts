import type { Request } from 'express';

/** The most of a `User-Agent` header svc keeps (the `user_agent` columns). */
export const USER_AGENT_MAX_LENGTH = 512;

/** The request's `User-Agent` as a session row or refresh family stores it: at most 512 characters, or null. */
export function userAgentOf(request: Request): string | null {
  const header = request.headers['user-agent'];
  return typeof header === 'string' && header.length > 0 ? header.slice(0, USER_AGENT_MAX_LENGTH) : null;
}

import type { Request } from 'express';

/**
 * The matched route's path, without the query string: `/auth/LOGIN/`, `/auth/login?x=1` and
 * `/auth/login` share one counter, as do `/items/1` and `/items/2` of `/items/:id`.
 */
export function routePathOf(request: Request): string {
  const routePath = (request.route as { path?: unknown } | undefined)?.path;
  return typeof routePath === 'string' ? `${request.baseUrl ?? ''}${routePath}` : request.path;
}

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { OPTIONAL_AUTH_ROUTE } from './auth-access.decorators.js';
import { principalOf } from './current-user.guard.js';

/**
 * The current user on a route behind `CurrentUserGuard` (or the global guard): `request.user`,
 * the user body (id, email and the `@SvcReturned()` columns), safe to return as it is. A test that
 * overrides the guard and sets `request.user` itself gets that. `@CurrentUser('row')` gives the
 * entity row instead, with every column (the password hash too: never return it). On an
 * `@OptionalAuth()` route it is `undefined` for an anonymous request.
 */
export const CurrentUser = createParamDecorator((data: 'body' | 'row' | undefined, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<Request & { user?: unknown }>();
  const value = data === 'row' ? principalOf(request)?.user : request.user;
  if (value !== undefined) return value;
  if (Reflect.getMetadata(OPTIONAL_AUTH_ROUTE, context.getHandler()) || Reflect.getMetadata(OPTIONAL_AUTH_ROUTE, context.getClass())) return undefined;
  throw new Error('svc: @CurrentUser() needs @UseGuards(CurrentUserGuard) on the route, or globalGuard: true');
});

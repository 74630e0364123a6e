import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { principalOf } from './current-user.guard.js';

/**
 * The current user on a route behind `CurrentUserGuard`: the user body (id, email and the
 * `@SvcReturned()` columns), safe to return as it is. `@CurrentUser('row')` gives the entity row
 * instead, with every column (the password hash too: never return it).
 */
export const CurrentUser = createParamDecorator((data: 'body' | 'row' | undefined, context: ExecutionContext) => {
  const principal = principalOf(context.switchToHttp().getRequest<Request>());
  if (!principal) throw new Error('@CurrentUser() needs @UseGuards(CurrentUserGuard) on the route');
  return data === 'row' ? principal.user : principal.body;
});

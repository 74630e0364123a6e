import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { CurrentUserGuard } from './current-user.guard.js';
import { FRESH_AUTH_ROUTE } from './fresh-sign-in.js';

/**
 * Marks a route (or every route of a controller) that needs a recent sign-in (docs/guides/account-security.md,
 * "Fresh sign-in"): a credential whose last real sign-in is older than `maxAgeSeconds` (default the
 * `reauth.maxAgeSeconds` option) is refused with 403 `REAUTH_REQUIRED` and the `methods` the user can
 * re-authenticate with. Implies `@UseGuards(CurrentUserGuard)`; an impersonation restriction is checked first.
 */
export function RequireFreshAuth(maxAgeSeconds?: number): MethodDecorator & ClassDecorator {
  if (maxAgeSeconds !== undefined && (typeof maxAgeSeconds !== 'number' || !Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 1)) {
    throw new TypeError(`svc: @RequireFreshAuth(maxAgeSeconds) must be a positive integer, got ${JSON.stringify(maxAgeSeconds)}`);
  }
  return applyDecorators(SetMetadata(FRESH_AUTH_ROUTE, maxAgeSeconds ?? null), UseGuards(CurrentUserGuard));
}


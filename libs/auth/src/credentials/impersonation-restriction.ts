import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import { AuthError } from '../errors/auth.error.js';
import type { Principal } from './credential-resolver.js';

/** Metadata key of `@RestrictedWhileImpersonating()`. */
export const RESTRICTED_WHILE_IMPERSONATING = 'svc:restricted-while-impersonating';

/**
 * Marks a route (or every route of a controller) that an administrator acting as the user may not
 * use: what changes how the account is reached (password, email, second factors, passkeys, linked
 * identities) and the administration itself (docs/guides/administration.md). The guard that
 * resolves the credential answers 403 `IMPERSONATION_RESTRICTED` before any other check of the route.
 */
export const RestrictedWhileImpersonating = (): MethodDecorator & ClassDecorator => SetMetadata(RESTRICTED_WHILE_IMPERSONATING, true);

/** Refuses an impersonated credential on a restricted route (OWASP ASVS 5.0 V8.2.1: the impersonator's access stays narrower than the user's). */
export function assertNotRestrictedForImpersonation(context: ExecutionContext, principal: Principal): void {
  if (principal.impersonatedBy === undefined) return;
  const restricted = Reflect.getMetadata(RESTRICTED_WHILE_IMPERSONATING, context.getHandler()) || Reflect.getMetadata(RESTRICTED_WHILE_IMPERSONATING, context.getClass());
  if (restricted) throw new AuthError('IMPERSONATION_RESTRICTED');
}

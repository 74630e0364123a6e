import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type { ModulesContainer } from '@nestjs/core';
import { OPTIONAL_AUTH_ROUTE, PUBLIC_ROUTE } from '../credentials/auth-access.decorators.js';
import { CurrentUserGuard } from '../credentials/current-user.guard.js';
import { freshAuthOf } from '../credentials/fresh-sign-in.js';
import { VerifiedEmailGuard } from '../credentials/verified-email.guard.js';
import { REQUIRED_PERMISSIONS, REQUIRED_ROLES } from '../authorization/authorization.constants.js';
import { REQUIRED_ORG_PERMISSIONS, REQUIRED_ORG_ROLES } from '../organizations/org-authorization.constants.js';
import { OrgAuthorizationGuard } from '../organizations/org-authorization.guard.js';
import { AuthorizationGuard } from '../authorization/authorization.guard.js';
import { RATE_LIMIT_ROUTE, type RateLimitRoute } from '../rate-limit/rate-limit.constants.js';

/** A route handler of the application, and what svc does on it. */
export interface ApplicationHandler {
  controller: string;
  method: string;
  /** svc's credential guards it: needed, or taken when there is one; absent, not guarded. */
  access?: 'required' | 'optional';
  /** POST, PUT, PATCH or DELETE: a cookie-authenticated one is checked for its origin. */
  changesState: boolean;
  /** `@RequireVerifiedEmail()` */
  verifiedEmail: boolean;
  /** `@RateLimit()` / `@RateLimitFor()`, not skipped. */
  rateLimited: boolean;
  /** `@Roles(...)` of the controller and the method (each level's, any of them). */
  roles: string[];
  /** `@Permissions(...)` of the controller and the method (all of them). */
  permissions: string[];
  /** `@RequireFreshAuth()`: the route's own age in seconds, or null for `reauth.maxAgeSeconds`; absent without it. */
  freshAuth?: number | null;
  /** `@OrgRoles(...)` of the controller and the method. */
  orgRoles: string[];
  /** `@OrgPermissions(...)` of the controller and the method. */
  orgPermissions: string[];
}

const STATE_CHANGING = [RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE, RequestMethod.ALL];

/**
 * The route handlers of every controller of the application, with what svc does on each: the
 * credential (`CurrentUserGuard`, `@RequireVerifiedEmail()`, `@Roles()` or `@Permissions()` on the method or its controller, and
 * with the global guard all but the `@Public()` ones; `@OptionalAuth()` ones serve everyone, so
 * their credential is optional), the verified email and the rate limit.
 */
export function applicationHandlers(modules: ModulesContainer, globalGuard: boolean): ApplicationHandler[] {
  const handlers: ApplicationHandler[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[method];
        if (method === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const guards: unknown[] = [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])];
        const limit = (Reflect.getMetadata(RATE_LIMIT_ROUTE, handler) ?? Reflect.getMetadata(RATE_LIMIT_ROUTE, controller)) as RateLimitRoute | undefined;
        handlers.push({
          controller: controller.name,
          method,
          access: accessOf(controller, handler, guards, globalGuard),
          changesState: STATE_CHANGING.includes(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod),
          verifiedEmail: guards.includes(VerifiedEmailGuard),
          rateLimited: limit !== undefined && !limit.skip,
          roles: [...new Set([...(Reflect.getMetadata(REQUIRED_ROLES, controller) ?? []), ...(Reflect.getMetadata(REQUIRED_ROLES, handler) ?? [])])],
          permissions: [...new Set([...(Reflect.getMetadata(REQUIRED_PERMISSIONS, controller) ?? []), ...(Reflect.getMetadata(REQUIRED_PERMISSIONS, handler) ?? [])])],
          ...(freshAuthOf(handler, controller) !== undefined ? { freshAuth: freshAuthOf(handler, controller) } : {}),
          orgRoles: [...new Set([...(Reflect.getMetadata(REQUIRED_ORG_ROLES, controller) ?? []), ...(Reflect.getMetadata(REQUIRED_ORG_ROLES, handler) ?? [])])],
          orgPermissions: [...new Set([...(Reflect.getMetadata(REQUIRED_ORG_PERMISSIONS, controller) ?? []), ...(Reflect.getMetadata(REQUIRED_ORG_PERMISSIONS, handler) ?? [])])],
        });
      }
    }
  }
  return handlers;
}

function accessOf(controller: Function, handler: Function, guards: unknown[], globalGuard: boolean): ApplicationHandler['access'] {
  if (guards.includes(CurrentUserGuard) || guards.includes(VerifiedEmailGuard) || guards.includes(AuthorizationGuard) || guards.includes(OrgAuthorizationGuard)) return 'required';
  if (!globalGuard) return undefined;
  const flag = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  if (flag(PUBLIC_ROUTE)) return undefined;
  return flag(OPTIONAL_AUTH_ROUTE) ? 'optional' : 'required';
}

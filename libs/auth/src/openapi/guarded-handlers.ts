import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type { ModulesContainer } from '@nestjs/core';
import { OPTIONAL_AUTH_ROUTE, PUBLIC_ROUTE } from '../credentials/auth-access.decorators.js';
import { CurrentUserGuard } from '../credentials/current-user.guard.js';

/** A route handler of the application and whether svc's credential guards it. */
export interface GuardedHandler {
  controller: string;
  method: string;
  access: 'required' | 'optional';
}

/**
 * The handlers of every controller of the application that svc's credential guards: those with
 * `CurrentUserGuard` on the method or its controller, and with the global guard, all but the
 * `@Public()` ones (`@OptionalAuth()` ones serve everyone, so their credential is optional).
 */
export function guardedHandlers(modules: ModulesContainer, globalGuard: boolean): GuardedHandler[] {
  const handlers: GuardedHandler[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[method];
        if (method === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const access = accessOf(controller, handler, globalGuard);
        if (access) handlers.push({ controller: controller.name, method, access });
      }
    }
  }
  return handlers;
}

function accessOf(controller: Function, handler: Function, globalGuard: boolean): GuardedHandler['access'] | undefined {
  const guards = [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])];
  if (guards.includes(CurrentUserGuard)) return 'required';
  if (!globalGuard) return undefined;
  const flag = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  if (flag(PUBLIC_ROUTE)) return undefined;
  return flag(OPTIONAL_AUTH_ROUTE) ? 'optional' : 'required';
}

import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { ModulesContainer } from '@nestjs/core';

/** A route handler of a mounted controller. */
export interface RouteHandler {
  controller: Type;
  /** The method's name on the controller. */
  name: string;
  /** The method itself: Nest's route metadata and svc's are on it. */
  handler: Function;
}

/** Every controller the application mounted, module by module. */
export function mountedControllers(modules: ModulesContainer): Type[] {
  return [...modules.values()].flatMap((module) => [...module.controllers.values()].flatMap((wrapper) => (wrapper.metatype ? [wrapper.metatype as Type] : [])));
}

/**
 * The route handlers of `controllers`, in the order Nest registers them: each controller's own
 * methods and those it inherits (the library mounts a subclass of each of its controllers under the prefix).
 */
export function routeHandlersOf(controllers: Iterable<Type>): RouteHandler[] {
  const handlers: RouteHandler[] = [];
  for (const controller of controllers) {
    const seen = new Set<string>();
    for (let prototype = controller.prototype as object | null; prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype) as object | null) {
      for (const name of Object.getOwnPropertyNames(prototype)) {
        if (name === 'constructor' || seen.has(name)) continue;
        seen.add(name);
        const handler: unknown = Object.getOwnPropertyDescriptor(prototype, name)?.value;
        if (typeof handler === 'function' && Reflect.getMetadata(PATH_METADATA, handler) !== undefined) handlers.push({ controller, name, handler });
      }
    }
  }
  return handlers;
}

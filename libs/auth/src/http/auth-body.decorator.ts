import { createParamDecorator, type ExecutionContext, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import type { HookName } from '../hooks/auth-hooks.js';
import { AUTH_BODY_SCHEMA, type AuthBodySchema } from './auth-body-schema.js';
import { BEFORE_HOOK, type BeforeHookPayloadOf, type BeforeHookRoute, BeforeHooksInterceptor, hookedBodyOf } from './before-hooks.interceptor.js';

const TheHookedBody = createParamDecorator((_body: string, context: ExecutionContext) => hookedBodyOf(context.switchToHttp().getRequest<Request>()));

/**
 * The request's body, validated against `body`'s schema and passed through its before-hook by `BeforeHooksInterceptor`
 * (docs/guides/application.md): the one way a library handler receives a body.
 */
export const AuthBody =
  (body: AuthBodySchema): ParameterDecorator =>
  (target, key, index) => {
    TheHookedBody(body.name)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
    Reflect.defineMetadata(AUTH_BODY_SCHEMA, body, descriptor.value as object);
    UseInterceptors(BeforeHooksInterceptor)(target, key!, descriptor);
  };

/**
 * For a route whose before-hook does not take the body: `BeforeHooksInterceptor` runs hook `name` on
 * `payloadOf(controller, request)` before the handler; a refusal or failure ends the request there.
 */
export function BeforeHook<N extends HookName, C = object>(name: N, payloadOf: BeforeHookPayloadOf<N, C>): MethodDecorator {
  return (target, key, descriptor) => {
    Reflect.defineMetadata(BEFORE_HOOK, { name, payloadOf } as unknown as BeforeHookRoute, descriptor.value as object);
    UseInterceptors(BeforeHooksInterceptor)(target, key, descriptor);
  };
}

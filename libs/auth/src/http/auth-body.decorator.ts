import { createParamDecorator, type ExecutionContext, type Type, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import type { HookName } from '../hooks/auth-hooks.js';
import type { AuthSchemaName } from '../users/auth-schemas.js';
import { AUTH_BODY_SCHEMA, BEFORE_HOOK, type BeforeHookPayloadOf, type BeforeHookRoute, BeforeHooksInterceptor, hookedBodyOf } from './before-hooks.interceptor.js';

const TheHookedBody = createParamDecorator((_schema: AuthSchemaName | Type<object>, context: ExecutionContext) => hookedBodyOf(context.switchToHttp().getRequest<Request>()));

/**
 * The request's body, validated against `schema` and passed through its before-hook by `BeforeHooksInterceptor`
 * (docs/guides/application.md): the one way a library handler receives a body. `schema` names one
 * of the schemas built at startup, or is a feature's own request class (class-validator rules, no before-hook).
 */
export const AuthBody =
  (schema: AuthSchemaName | Type<object>): ParameterDecorator =>
  (target, key, index) => {
    TheHookedBody(schema)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
    Reflect.defineMetadata(AUTH_BODY_SCHEMA, schema, descriptor.value as object);
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

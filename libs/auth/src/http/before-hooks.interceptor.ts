import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { Request } from 'express';
import { AuthError } from '../errors/auth.error.js';
import type { HookName } from '../hooks/auth-hooks.js';
import { type HookPayload, HookRunner } from '../hooks/hook-runner.js';
import { SecretString } from '../hooks/secret-string.js';
import { AUTH_BODY_SCHEMA, type AuthBodySchema, emptyBody } from './auth-body-schema.js';
import { AuthBodySchemas } from './auth-body-schemas.js';
import { jsonBodyProblems } from './json-body-rules.js';
import { from, type Observable, switchMap } from 'rxjs';

/** What `@BeforeHook(name, payloadOf)` leaves on its handler: a hook whose payload is not the body. */
export const BEFORE_HOOK = Symbol('svc: the before-hook of this route');
/** Where the interceptor leaves, on the request, the body the handler's `@AuthBody` receives. */
const HOOKED_BODY = Symbol('svc: the validated, hooked body');

/** Reads, with the route's controller, what a before-hook that does not take the body receives. */
export type BeforeHookPayloadOf<N extends HookName, C = object> = (controller: C, request: Request) => HookPayload<N> | Promise<HookPayload<N>>;

export interface BeforeHookRoute {
  name: HookName;
  payloadOf: BeforeHookPayloadOf<HookName>;
}

/**
 * The one place a route's before-hook runs (docs/decisions/0011-before-hooks.md), after the guards and
 * before the handler. For `@AuthBody(body)`: validates the request's JSON body against the body's schema
 * built at startup (unknown fields refused, docs/decisions/0006-validation.md), wraps its secrets in
 * `SecretString`, and runs its before-hook; the handler receives what the hook returned,
 * typed. For `@BeforeHook(name, payloadOf)`: runs the hook on the payload read from the request.
 */
@Injectable()
export class BeforeHooksInterceptor implements NestInterceptor {
  constructor(
    private readonly hooks: HookRunner,
    private readonly schemas: AuthBodySchemas,
    private readonly moduleRef: ModuleRef,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & { [HOOKED_BODY]?: object }>();
    const handler = context.getHandler();
    const body = Reflect.getMetadata(AUTH_BODY_SCHEMA, handler) as AuthBodySchema | undefined;
    const route = Reflect.getMetadata(BEFORE_HOOK, handler) as BeforeHookRoute | undefined;
    const before = async () => {
      if (body !== undefined) request[HOOKED_BODY] = await this.hookedBody(body, request);
      if (route !== undefined) {
        const controller = this.moduleRef.get<object>(context.getClass(), { strict: false });
        await this.hooks.run(route.name, (await route.payloadOf(controller, request)) as never, request);
      }
    };
    return from(before()).pipe(switchMap(() => next.handle()));
  }

  private async hookedBody(schema: AuthBodySchema, request: Request): Promise<object> {
    const { hook, secrets } = schema;
    const body = wrapSecrets(await this.validated(schema, request.body), secrets);
    if (!hook) return body;
    // A hook may hand a secret back as a plain string: it is wrapped again before the handler sees it.
    return wrapSecrets(await this.hooks.run(hook, body as never, request), secrets);
  }

  private async validated(schema: AuthBodySchema, body: unknown): Promise<Record<string, unknown>> {
    // A route that takes no body accepts none, or `{}`.
    if (body === undefined && schema === emptyBody) return {};
    if (body === undefined && schema.optional) body = {};
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AuthError('VALIDATION_FAILED', { message: ['body must be a JSON object'] });
    }
    const problems = jsonBodyProblems(body as Record<string, unknown>, this.schemas.fieldsOf(schema));
    if (problems.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problems });
    if (schema === emptyBody) return {};
    const instance = plainToInstance(this.schemas.schemaOf(schema), body) as object;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problemsOf(errors) });
    return { ...(instance as Record<string, unknown>) };
  }
}

function problemsOf(errors: ValidationError[]): string[] {
  return errors.flatMap((error) => Object.values(error.constraints ?? { invalid: `${error.property} is invalid` }));
}

function wrapSecrets<T>(payload: T, secrets: readonly string[]): T {
  const fields = payload as Record<string, unknown>;
  for (const field of secrets) {
    if (typeof fields[field] === 'string') fields[field] = new SecretString(fields[field]);
  }
  return payload;
}

/** The body the interceptor left for `@AuthBody`. */
export function hookedBodyOf(request: Request): object {
  return (request as Request & { [HOOKED_BODY]?: object })[HOOKED_BODY]!;
}

import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { Request } from 'express';
import { AUTH_SCHEMAS } from '../config/auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import type { HookName } from '../hooks/auth-hooks.js';
import { type HookPayload, HookRunner } from '../hooks/hook-runner.js';
import { SecretString } from '../hooks/secret-string.js';
import { type AuthSchemaName, type AuthSchemas, fieldsOf } from '../users/auth-schemas.js';
import { jsonBodyProblems } from './json-body-rules.js';
import { from, type Observable, switchMap } from 'rxjs';

/** Each body the library reads: its schema, the before-hook it goes through, and its secret fields. */
const OPERATIONS: Record<AuthSchemaName, { hook?: HookName; secrets: readonly string[] }> = {
  signup: { hook: 'beforeSignup', secrets: ['password'] },
  login: { hook: 'beforeLogin', secrets: ['password'] },
  forgotPassword: { hook: 'beforeForgotPassword', secrets: [] },
  resetPassword: { hook: 'beforeResetPassword', secrets: ['token', 'password'] },
  changePassword: { hook: 'beforeChangePassword', secrets: ['current_password', 'new_password'] },
  emailToken: { secrets: ['token'] },
  changeEmail: { hook: 'beforeChangeEmail', secrets: ['password'] },
  passkeyRegistration: { secrets: [] },
  passkeyLogin: { secrets: [] },
  passkeyName: { secrets: [] },
  empty: { secrets: [] },
  mfaPassword: { secrets: ['password'] },
  mfaCode: { secrets: ['code'] },
  mfaConfirm: { secrets: ['password', 'code', 'recoveryCode'] },
  mfaVerify: { secrets: ['code', 'recoveryCode'] },
};

/** A body's schema: one built at startup, by name, or a feature's own request class. */
type BodySchema = AuthSchemaName | Type<object>;

/** What `@AuthBody(schema)` leaves on its handler: the schema of the body it takes. */
export const AUTH_BODY_SCHEMA = Symbol('svc: the body schema of this route');
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
 * before the handler. For `@AuthBody(schema)`: validates the request's JSON body against the schema
 * built at startup (unknown fields refused, docs/decisions/0006-validation.md), wraps secrets in
 * `SecretString`, and runs the operation's before-hook; the handler receives what the hook returned,
 * typed. For `@BeforeHook(name, payloadOf)`: runs the hook on the payload read from the request.
 */
@Injectable()
export class BeforeHooksInterceptor implements NestInterceptor {
  private readonly fields: Map<BodySchema, ReadonlySet<string>>;

  constructor(
    private readonly hooks: HookRunner,
    @Inject(AUTH_SCHEMAS) private readonly schemas: AuthSchemas,
    private readonly moduleRef: ModuleRef,
  ) {
    this.fields = new Map(Object.entries(schemas).map(([name, schema]) => [name as BodySchema, fieldsOf(schema)]));
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & { [HOOKED_BODY]?: object }>();
    const handler = context.getHandler();
    const schema = Reflect.getMetadata(AUTH_BODY_SCHEMA, handler) as BodySchema | undefined;
    const route = Reflect.getMetadata(BEFORE_HOOK, handler) as BeforeHookRoute | undefined;
    const before = async () => {
      if (schema !== undefined) request[HOOKED_BODY] = await this.hookedBody(schema, request);
      if (route !== undefined) {
        const controller = this.moduleRef.get<object>(context.getClass(), { strict: false });
        await this.hooks.run(route.name, (await route.payloadOf(controller, request)) as never, request);
      }
    };
    return from(before()).pipe(switchMap(() => next.handle()));
  }

  private async hookedBody(schema: BodySchema, request: Request): Promise<object> {
    const { hook, secrets } = typeof schema === 'string' ? OPERATIONS[schema] : { hook: undefined, secrets: [] };
    const body = wrapSecrets(await this.validated(schema, request.body), secrets);
    if (!hook) return body;
    // A hook may hand a secret back as a plain string: it is wrapped again before the handler sees it.
    return wrapSecrets(await this.hooks.run(hook, body as never, request), secrets);
  }

  private async validated(schema: BodySchema, body: unknown): Promise<Record<string, unknown>> {
    // A route that takes no body accepts none, or `{}`; a feature's request class sees no body as `{}`.
    if (body === undefined && schema === 'empty') return {};
    if (body === undefined && typeof schema !== 'string') body = {};
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AuthError('VALIDATION_FAILED', { message: ['body must be a JSON object'] });
    }
    const problems = jsonBodyProblems(body as Record<string, unknown>, this.fieldsOf(schema));
    if (problems.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problems });
    if (schema === 'empty') return {};
    const instance = plainToInstance(typeof schema === 'string' ? this.schemas[schema] : schema, body) as object;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problemsOf(errors) });
    return { ...(instance as Record<string, unknown>) };
  }

  private fieldsOf(schema: BodySchema): ReadonlySet<string> {
    let fields = this.fields.get(schema);
    if (fields === undefined) this.fields.set(schema, (fields = fieldsOf(schema as Type<object>)));
    return fields;
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

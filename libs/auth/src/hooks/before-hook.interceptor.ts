import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { Request } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import { AUTH_SCHEMAS } from '../auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import { type AuthSchemaName, type AuthSchemas, fieldsOf } from '../users/auth-schemas.js';
import { jsonBodyProblems } from '../http/json-body-rules.js';
import type { HookName } from './auth-hooks.js';
import { HookRunner } from './hook-runner.js';
import { SecretString } from './secret-string.js';

const BODY_OPERATION = Symbol('svc:body-operation');
const PAYLOAD = Symbol('svc:payload');
/** The library's own secret fields of each schema; an application column is never one of them. */
const SECRET_FIELDS: Record<AuthSchemaName, readonly string[]> = {
  signup: ['password'],
  login: ['password'],
  forgotPassword: [],
  resetPassword: ['token', 'password'],
  changePassword: ['current_password', 'new_password'],
};

interface BodyOperation {
  schema: AuthSchemaName;
  hook: HookName;
}

/** Marks a route whose JSON body is validated against `schema` and then given to `hook`. */
export const BodyOperation = (schema: AuthSchemaName, hook: HookName) => SetMetadata(BODY_OPERATION, { schema, hook } satisfies BodyOperation);

/** The payload the before-hook returned, for the handler. */
export function payloadOf<T>(request: Request): T {
  return (request as unknown as Record<symbol, T>)[PAYLOAD];
}

/**
 * Validates the body against the schema built at startup (unknown fields refused), wraps secrets
 * in `SecretString`, and runs the route's before-hook, before the handler starts.
 */
@Injectable()
export class BeforeHookInterceptor implements NestInterceptor {
  private readonly fields: ReadonlyMap<AuthSchemaName, ReadonlySet<string>>;

  constructor(
    private readonly reflector: Reflector,
    private readonly hooks: HookRunner,
    @Inject(AUTH_SCHEMAS) private readonly schemas: AuthSchemas,
  ) {
    this.fields = new Map(Object.entries(schemas).map(([name, schema]) => [name as AuthSchemaName, fieldsOf(schema)]));
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const operation = this.reflector.get<BodyOperation | undefined>(BODY_OPERATION, context.getHandler());
    if (!operation) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    return from(this.prepare(operation, request)).pipe(switchMap(() => next.handle()));
  }

  private async prepare(operation: BodyOperation, request: Request): Promise<void> {
    const body = wrapSecrets(await this.validated(operation.schema, request.body), operation.schema);
    // A hook may hand a secret back as a plain string: it is wrapped again before the handler sees it.
    const payload = wrapSecrets(await this.hooks.run(operation.hook, body as never, request), operation.schema);
    (request as unknown as Record<symbol, unknown>)[PAYLOAD] = payload;
  }

  private async validated(schema: AuthSchemaName, body: unknown): Promise<Record<string, unknown>> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AuthError('VALIDATION_FAILED', { message: ['body must be a JSON object'] });
    }
    const problems = jsonBodyProblems(body as Record<string, unknown>, this.fields.get(schema)!);
    if (problems.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problems });
    const instance = plainToInstance(this.schemas[schema], body) as object;
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

function wrapSecrets<T>(payload: T, schema: AuthSchemaName): T {
  const fields = payload as Record<string, unknown>;
  for (const field of SECRET_FIELDS[schema]) {
    if (typeof fields[field] === 'string') fields[field] = new SecretString(fields[field]);
  }
  return payload;
}

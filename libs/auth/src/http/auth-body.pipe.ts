import { type ArgumentMetadata, Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { Request } from 'express';
import { AUTH_SCHEMAS } from '../config/auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import type { HookName } from '../hooks/auth-hooks.js';
import { HookRunner } from '../hooks/hook-runner.js';
import { SecretString } from '../hooks/secret-string.js';
import { type AuthSchemaName, type AuthSchemas, fieldsOf } from '../users/auth-schemas.js';
import { jsonBodyProblems } from './json-body-rules.js';

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

/**
 * The pipe of `@AuthBody(schema)`: validates the request's JSON body against the schema built at
 * startup (unknown fields refused, docs/decisions/0006-validation.md), wraps secrets in `SecretString`, and runs
 * the operation's before-hook; the handler receives what the hook returned, typed.
 */
@Injectable()
export class AuthBodyPipe implements PipeTransform<Request, Promise<object>> {
  private readonly fields: ReadonlyMap<AuthSchemaName, ReadonlySet<string>>;

  constructor(
    private readonly hooks: HookRunner,
    @Inject(AUTH_SCHEMAS) private readonly schemas: AuthSchemas,
  ) {
    this.fields = new Map(Object.entries(schemas).map(([name, schema]) => [name as AuthSchemaName, fieldsOf(schema)]));
  }

  async transform(request: Request, metadata: ArgumentMetadata): Promise<object> {
    const schema = metadata.data as AuthSchemaName;
    const { hook, secrets } = OPERATIONS[schema];
    const body = wrapSecrets(await this.validated(schema, request.body), secrets);
    if (!hook) return body;
    // A hook may hand a secret back as a plain string: it is wrapped again before the handler sees it.
    return wrapSecrets(await this.hooks.run(hook, body as never, request), secrets);
  }

  private async validated(schema: AuthSchemaName, body: unknown): Promise<Record<string, unknown>> {
    // A route that takes no body accepts none, or `{}`.
    if (body === undefined && schema === 'empty') return {};
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AuthError('VALIDATION_FAILED', { message: ['body must be a JSON object'] });
    }
    const problems = jsonBodyProblems(body as Record<string, unknown>, this.fields.get(schema)!);
    if (problems.length > 0) throw new AuthError('VALIDATION_FAILED', { message: problems });
    if (schema === 'empty') return {};
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

function wrapSecrets<T>(payload: T, secrets: readonly string[]): T {
  const fields = payload as Record<string, unknown>;
  for (const field of secrets) {
    if (typeof fields[field] === 'string') fields[field] = new SecretString(fields[field]);
  }
  return payload;
}

import type { Type } from '@nestjs/common';
import type { AuthConfig } from '../config/auth-config.js';
import type { HookName } from '../hooks/auth-hooks.js';

/**
 * A request body a library route takes (`@AuthBody(signupBody)`), declared by the feature that owns
 * the route: its class-validator schema, its name in the OpenAPI document, the before-hook it goes
 * through and its secret fields (docs/decisions/0006-validation.md, docs/decisions/0011-before-hooks.md).
 */
export interface AuthBodySchema {
  /** The name of its schema in the OpenAPI document (`SvcSignupRequest`). */
  readonly name: string;
  /** Its class-validator class, built once per module: some rules come from the configuration (the password rules, the `@SvcInput()` columns). */
  readonly build: (config: AuthConfig) => Type<object>;
  /** The before-hook that receives the validated body. */
  readonly hook?: HookName;
  /** Fields wrapped in `SecretString` before a hook or the handler sees them. */
  readonly secrets: readonly string[];
  /** Every field is optional, and a request without a body is taken as `{}` (POST /admin/users/{id}/deactivate). */
  readonly optional?: boolean;
}

/** What `@AuthBody(body)` leaves on its handler: the `AuthBodySchema` of the body it takes. */
export const AUTH_BODY_SCHEMA = Symbol('svc: the body schema of this route');

class EmptyRequest {}

/** A route that takes no body: nothing, or `{}`. */
export const emptyBody: AuthBodySchema = { name: 'SvcEmptyRequest', build: () => EmptyRequest, secrets: [] };

import { type ExecutionContext, SetMetadata } from '@nestjs/common';

/** Metadata key of `@AcceptsApiKey()`. */
export const ACCEPTS_API_KEY = 'svc:accepts-api-key';

/**
 * Marks the one library route an API key may call: `/me`. Every other route under the prefix
 * answers 403 `API_KEY_NOT_ALLOWED` to a key (docs/decisions/0032-api-keys.md).
 */
export const AcceptsApiKey = (): MethodDecorator => SetMetadata(ACCEPTS_API_KEY, true);

/** Whether the route's handler is marked `@AcceptsApiKey()`. */
export function acceptsApiKey(context: ExecutionContext): boolean {
  return Reflect.getMetadata(ACCEPTS_API_KEY, context.getHandler()) === true;
}

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthSchemaName } from '../users/auth-schemas.js';
import { AuthBodyPipe } from './auth-body.pipe.js';

const TheRequest = createParamDecorator((_schema: AuthSchemaName, context: ExecutionContext) => context.switchToHttp().getRequest<Request>());

/**
 * The request's body, validated against `schema` and passed through its before-hook (docs/guides/application.md): the one way a library handler receives a body.
 */
export const AuthBody = (schema: AuthSchemaName): ParameterDecorator => TheRequest(schema, AuthBodyPipe);

import { type ArgumentsHost, Catch, NotFoundException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AuthError } from '../errors/auth.error.js';
import { isUnderAuthPrefix } from './auth-body-gate.js';

/**
 * A request under the prefix that no route matched (unknown path or method) gets the library's
 * `NOT_FOUND` body; every other 404 is left to the application's handling.
 */
@Catch(NotFoundException)
export class AuthNotFoundFilter extends BaseExceptionFilter {
  override catch(exception: NotFoundException, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    if (!isUnderAuthPrefix(http.getRequest<Request>()) || response.headersSent) return super.catch(exception, host);
    const error = new AuthError('NOT_FOUND', { cause: exception });
    response.status(error.getStatus()).json(error.getResponse());
  }
}

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SVC_LOGGER } from '../auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import { describeError } from '../errors/describe-error.js';

/**
 * Bound to the library's controllers, so it answers every error of a request Express routed to a
 * library handler (guards, interceptors and handlers alike), whatever the case of its path, with
 * the error body of the library. An unexpected error is 500 `INTERNAL_ERROR`, logged to `svc` as
 * name and message only (no stack, no payload).
 */
@Catch()
export class AuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(SVC_LOGGER);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const error = this.toAuthError(exception, http.getRequest<Request>());
    if (response.headersSent) return;
    response.status(error.getStatus()).json(error.getResponse());
  }

  private toAuthError(exception: unknown, request: Request): AuthError {
    if (exception instanceof AuthError) return exception;
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.NOT_FOUND) return new AuthError('NOT_FOUND', { cause: exception });
    this.logger.error(`unexpected error on ${request.method} ${request.path}: ${describeError(exception)}`);
    return new AuthError('INTERNAL_ERROR', { cause: exception });
  }
}

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SVC_LOGGER } from '../config/auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import type { AuthErrorCode } from '../errors/error-codes.js';
import { describeError } from '../errors/describe-error.js';

/**
 * What an application's own guards, interceptors and pipes throw on a library route (a global
 * ThrottlerGuard's 429, a guard's 403): the status is kept, under the library's code for it.
 */
export const APPLICATION_ERRORS: Partial<Record<number, AuthErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: 'VALIDATION_FAILED',
  [HttpStatus.UNAUTHORIZED]: 'UNAUTHENTICATED',
  [HttpStatus.FORBIDDEN]: 'FORBIDDEN',
  [HttpStatus.NOT_FOUND]: 'NOT_FOUND',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'PAYLOAD_TOO_LARGE',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'UNSUPPORTED_MEDIA_TYPE',
  [HttpStatus.TOO_MANY_REQUESTS]: 'RATE_LIMITED',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'SERVICE_UNAVAILABLE',
};

/**
 * Bound to the library's controllers, so it answers every error of a request Express routed to a
 * library handler (guards, interceptors and handlers alike), whatever the case of its path, with
 * the error body of the library. An `HttpException` keeps its status when the library has a code
 * for it; anything else is 500 `INTERNAL_ERROR`, logged to `svc` as name and message only (no
 * stack, no payload).
 */
@Catch()
export class AuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(SVC_LOGGER);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const error = authErrorOf(exception, http.getRequest<Request>(), this.logger);
    if (response.headersSent) return;
    response.status(error.getStatus()).json(error.getResponse());
  }
}

/** The library's error for whatever a library route threw; an unexpected one is logged to `svc` (name and message only). */
export function authErrorOf(exception: unknown, request: Request, logger: Logger): AuthError {
  if (exception instanceof AuthError) return exception;
  const code = exception instanceof HttpException ? APPLICATION_ERRORS[exception.getStatus()] : undefined;
  if (code) return new AuthError(code, { cause: exception });
  logger.error(`unexpected error on ${request.method} ${request.path}: ${describeError(exception)}`);
  return new AuthError('INTERNAL_ERROR', { cause: exception });
}

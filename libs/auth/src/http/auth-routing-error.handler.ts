import { Logger } from '@nestjs/common';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { SVC_LOGGER } from '../config/auth.constants.js';
import { AuthError } from '../errors/auth.error.js';
import { authErrorOf } from './auth-exception.filter.js';

/**
 * The error handler under the prefix, after the routes: an error Express raised before a library
 * handler ran gets the library's error body too. A path parameter that is not valid
 * percent-encoding (RFC 3986 §2.1, `/sessions/%ZZ`) is 400 `VALIDATION_FAILED`, not Nest's bare 400.
 */
export function authRoutingError(): ErrorRequestHandler {
  const logger = new Logger(SVC_LOGGER);
  return (exception: unknown, request: Request, response: Response, next: NextFunction): void => {
    if (response.headersSent) return next(exception);
    const error = isUndecodablePath(exception)
      ? new AuthError('VALIDATION_FAILED', { message: ['path: a parameter is not valid percent-encoding'], cause: exception })
      : authErrorOf(exception, request, logger);
    response.status(error.getStatus()).json(error.getResponse());
  };
}

/** What Express's router throws when `decodeURIComponent` refuses a path parameter. */
function isUndecodablePath(exception: unknown): boolean {
  return exception instanceof URIError && (exception as URIError & { status?: number }).status === 400;
}

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { SVC_LOGGER } from '../config/auth.constants.js';
import { ApplicationError, type ApplicationErrorBody } from '../errors/application-error.js';
import { AuthError } from '../errors/auth.error.js';
import { APPLICATION_ERRORS, authErrorOf } from './auth-exception.filter.js';

/**
 * Opt-in, for the application's own routes: every error answers svc's error body
 * `{ statusCode, error, message, code }` (docs/decisions/0004-errors.md), as svc's routes do.
 * `app.useGlobalFilters(new AuthErrorBodyFilter())`, or `{ provide: APP_FILTER, useClass: AuthErrorBodyFilter }`.
 * - `AuthError`, `ApplicationError` and any `HttpException` whose body has a `code`: as thrown.
 * - Another `HttpException` with a status svc has a code for: that code, its status and its message
 *   (ValidationPipe's 400: `VALIDATION_FAILED` with its list of problems).
 * - Another 4xx: its status and message, the code its status's name (409 `CONFLICT`).
 * - Anything else: 500 `INTERNAL_ERROR`, logged to `svc` as name and message only, nothing leaked
 *   (OWASP Error Handling Cheat Sheet).
 * svc's own routes keep their filter.
 */
@Catch()
export class AuthErrorBodyFilter implements ExceptionFilter {
  private readonly logger = new Logger(SVC_LOGGER);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const error = errorWithCodeOf(exception, http.getRequest<Request>(), this.logger);
    if (response.headersSent) return;
    response.status(error.getStatus()).json(error.getResponse());
  }
}

/** The error with a code for whatever an application route threw; an unexpected one is logged to `svc` (name and message only). */
export function errorWithCodeOf(exception: unknown, request: Request, logger: Logger): HttpException {
  if (exception instanceof HttpException && !(exception instanceof AuthError)) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    if (typeof body === 'object' && body !== null && typeof (body as Partial<ApplicationErrorBody>).code === 'string') return exception;
    const code = APPLICATION_ERRORS[status];
    if (code) return new AuthError(code, { status, message: messageOf(body), cause: exception });
    if (status >= 400 && status < 500) return new ApplicationError(status, statusName(status), messageOf(body), { cause: exception });
  }
  // svc's own errors as they are; a 5xx or anything else is 500 INTERNAL_ERROR, logged.
  return authErrorOf(exception, request, logger);
}

/** Nest's message: a string, or ValidationPipe's list of problems. */
function messageOf(body: string | object): string | string[] | undefined {
  const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((item) => typeof item === 'string')) return message;
  return undefined;
}

/** 409 → `CONFLICT`, 422 → `UNPROCESSABLE_ENTITY`. */
function statusName(status: number): string {
  return (STATUS_CODES[status] ?? `HTTP ${status}`).toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
}

import { HttpException, type HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { AUTH_ERRORS, type AuthErrorCode } from './error-codes.js';

/** Body of every error the library answers: Nest's usual fields plus a stable `code`. */
export interface AuthErrorBody {
  statusCode: number;
  error: string;
  message: string | string[];
  code: AuthErrorCode;
}

/**
 * The one error class of the library. It is an `HttpException`, so Nest's default filter answers
 * it with the error body of docs/decisions/0004-errors.md (`{ statusCode, error, message, code }`) wherever it is thrown (the library's routes or the application's).
 */
export class AuthError extends HttpException {
  override readonly name = 'AuthError';

  constructor(
    readonly code: AuthErrorCode,
    options: { message?: string | string[]; status?: HttpStatus; cause?: unknown; details?: Readonly<Record<string, unknown>> } = {},
  ) {
    const [defaultStatus, defaultMessage] = AUTH_ERRORS[code];
    const status = options.status ?? defaultStatus;
    const body: AuthErrorBody = {
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message: options.message ?? defaultMessage,
      code,
    };
    // Fields a code documents beside the usual ones (REAUTH_REQUIRED's `methods`); never the four above.
    super(options.details ? { ...options.details, ...body } : body, status, { cause: options.cause });
  }
}

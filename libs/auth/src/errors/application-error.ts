import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';

/** The error body of an application's own code: svc's `{ statusCode, error, message, code }`, with a code of the application's. */
export interface ApplicationErrorBody {
  statusCode: number;
  error: string;
  message: string | string[];
  code: string;
}

/**
 * An error of the application's own routes and guards in svc's error body (docs/decisions/0004-errors.md), under a
 * code of its own (`new ApplicationError(409, 'NOTE_LOCKED', 'The note is being edited')`). Nest's
 * default filter answers it with that body too; for svc's own codes, throw `AuthError`.
 */
export class ApplicationError extends HttpException {
  override readonly name = 'ApplicationError';

  constructor(
    status: number,
    readonly code: string,
    message: string | string[] = STATUS_CODES[status] ?? 'Error',
    options: { cause?: unknown } = {},
  ) {
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new TypeError(`svc: ApplicationError's status must be an HTTP error status (400..599), got ${JSON.stringify(status)}`);
    if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(code)) throw new TypeError(`svc: ApplicationError's code must be upper snake case (NOTE_LOCKED), got ${JSON.stringify(code)}`);
    const body: ApplicationErrorBody = { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, code };
    super(body, status, { cause: options.cause });
  }
}

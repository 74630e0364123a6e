import { ArgumentsHost, Catch, HttpException, HttpStatus, Inject, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CONFIG, SVC_LOGGER } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { describe } from '../hooks/hook-runner.js';
import { setAuthResponseHeaders } from './auth-response-headers.js';

/**
 * Gives every error on the library's routes the contract's body (contract §1). Two kinds need it:
 * the application's JSON parser runs before any route, so malformed JSON or an oversized body
 * reach the filters, not the library's middleware; and an unexpected error is answered 500
 * `INTERNAL_ERROR` and logged to `svc` as name and message only (no stack, no payload).
 * Requests outside the prefix pass to Nest's default handling untouched.
 */
@Catch()
export class AuthExceptionFilter extends BaseExceptionFilter {
  private readonly logger = new Logger(SVC_LOGGER);
  @Inject(AUTH_CONFIG) private readonly config: AuthConfig;

  override catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    if (!this.isAuthRoute(request)) return super.catch(exception, host);
    setAuthResponseHeaders(host.switchToHttp().getResponse<Response>());
    super.catch(this.toAuthError(exception, request), host);
  }

  private isAuthRoute(request: Request): boolean {
    const path = request.path ?? '';
    return path === this.config.prefix || path.startsWith(`${this.config.prefix}/`);
  }

  private toAuthError(exception: unknown, request: Request): HttpException {
    if (exception instanceof AuthError) return exception;
    if (exception instanceof HttpException) return fromParser(exception) ?? exception;
    this.logger.error(`unexpected error on ${request.method} ${request.path}: ${describe(exception)}`);
    return new AuthError('INTERNAL_ERROR', { cause: exception });
  }
}

function fromParser(exception: HttpException): AuthError | undefined {
  const type = (exception.cause as { type?: string } | undefined)?.type;
  if (type === 'entity.parse.failed') return new AuthError('MALFORMED_JSON', { cause: exception });
  if (type === 'entity.too.large' || exception.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE) return new AuthError('PAYLOAD_TOO_LARGE', { cause: exception });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new AuthError('UNSUPPORTED_MEDIA_TYPE', { cause: exception });
  return undefined;
}

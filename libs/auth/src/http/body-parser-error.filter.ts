import { ArgumentsHost, Catch, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { setAuthResponseHeaders } from './auth-http.middleware.js';

/**
 * The application's JSON parser runs before any route, so its errors (malformed JSON, a body over
 * its limit) reach the filters, not the library's middleware. On the library's routes this filter
 * answers them with the contract's codes; everything else passes to Nest's default handling.
 */
@Catch(HttpException)
export class BodyParserErrorFilter extends BaseExceptionFilter {
  @Inject(AUTH_CONFIG) private readonly config: AuthConfig;

  override catch(exception: HttpException, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const onAuthRoute = request.path === this.config.prefix || request.path.startsWith(`${this.config.prefix}/`);
    if (onAuthRoute) setAuthResponseHeaders(host.switchToHttp().getResponse<Response>());
    super.catch(onAuthRoute ? (asAuthError(exception) ?? exception) : exception, host);
  }
}

function asAuthError(exception: HttpException): AuthError | undefined {
  if (exception instanceof AuthError) return undefined;
  const type = (exception.cause as { type?: string } | undefined)?.type;
  if (type === 'entity.parse.failed') return new AuthError('MALFORMED_JSON', { cause: exception });
  if (type === 'entity.too.large' || exception.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE) return new AuthError('PAYLOAD_TOO_LARGE', { cause: exception });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new AuthError('UNSUPPORTED_MEDIA_TYPE', { cause: exception });
  return undefined;
}

import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { setAuthResponseHeaders } from './auth-response-headers.js';
import { assertSameOrigin, authCookiePattern } from './cross-site-check.js';

/**
 * Runs first on every library route (a class-level guard, so before rate limiting, hooks and
 * handlers): response headers, the cross-site check for cookie-authenticated requests, and the
 * body rules (JSON only, size limit) before any work is done. A guard rather than a middleware:
 * it costs one call, where route-bound middleware adds a matching layer per route.
 */
@Injectable()
export class AuthRequestGuard implements CanActivate {
  private readonly authCookie: RegExp;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.authCookie = authCookiePattern(config);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    setAuthResponseHeaders(http.getResponse<Response>());
    if (this.authCookie.test(request.headers.cookie ?? '')) assertSameOrigin(request, this.config);
    if (request.method === 'POST') this.checkBody(request);
    return true;
  }

  private checkBody(request: Request): void {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > this.config.bodyLimitBytes) throw new AuthError('PAYLOAD_TOO_LARGE');
    const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new AuthError('UNSUPPORTED_MEDIA_TYPE');
    // A chunked body has no Content-Length: measure what the application's parser produced.
    if (request.headers['content-length'] === undefined && Buffer.byteLength(JSON.stringify(request.body ?? null)) > this.config.bodyLimitBytes) {
      throw new AuthError('PAYLOAD_TOO_LARGE');
    }
  }
}

import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AUTH_CONFIG } from '../auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AuthError } from '../errors/auth.error.js';
import { assertSameOrigin, authCookiePattern } from './cross-site-check.js';

/** Headers on every auth response: credentials are never cached, URLs never leak (contract §2). */
export function setAuthResponseHeaders(response: Response): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * Runs before every library route: response headers, the cross-site check for cookie-authenticated
 * requests, and the body rules (JSON only, size limit) before any work is done.
 */
@Injectable()
export class AuthHttpMiddleware implements NestMiddleware {
  private readonly authCookie: RegExp;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.authCookie = authCookiePattern(config);
  }

  use(request: Request, response: Response, next: NextFunction): void {
    setAuthResponseHeaders(response);
    if (this.authCookie.test(request.headers.cookie ?? '')) assertSameOrigin(request, this.config);
    if (request.method === 'POST') this.checkBody(request);
    next();
  }

  private checkBody(request: Request): void {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > this.config.bodyLimitBytes) throw new AuthError('PAYLOAD_TOO_LARGE');
    const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new AuthError('UNSUPPORTED_MEDIA_TYPE');
    if (request.headers['content-length'] === undefined && Buffer.byteLength(JSON.stringify(request.body ?? null)) > this.config.bodyLimitBytes) {
      throw new AuthError('PAYLOAD_TOO_LARGE');
    }
  }
}

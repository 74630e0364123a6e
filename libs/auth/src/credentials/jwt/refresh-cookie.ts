import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { clearTokenCookie, readCookie, setTokenCookie } from '../../http/cookies.js';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings.js';

const DAY_SECONDS = 86_400;

/**
 * The refresh cookie (docs/guides/jwt.md): HttpOnly, Secure and SameSite from config, Path = the prefix
 * (the browser sends it to the auth endpoints only), Max-Age = the refresh lifetime.
 */
@Injectable()
export class RefreshCookie {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(JWT_SETTINGS) private readonly jwt: JwtSettings,
  ) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.refreshName);
  }

  set(response: Response, token: string): void {
    setTokenCookie(response, this.config, this.config.cookie.refreshName, token, this.config.prefix, this.jwt.refreshTokenExpireDays * DAY_SECONDS);
  }

  clear(response: Response): void {
    clearTokenCookie(response, this.config, this.config.cookie.refreshName, this.config.prefix);
  }
}

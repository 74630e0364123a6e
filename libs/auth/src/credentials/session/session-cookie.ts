import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../../config/auth.constants.js';
import type { AuthConfig } from '../../config/auth-config.js';
import { clearTokenCookie, readCookie, setTokenCookie } from '../../http/cookies.js';

const DAY_SECONDS = 86_400;

/** The session cookie: HttpOnly, Secure and SameSite from config, Path = `cookie.path`, Max-Age = the session lifetime. */
@Injectable()
export class SessionCookie {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.sessionName);
  }

  set(response: Response, token: string): void {
    setTokenCookie(response, this.config, this.config.cookie.sessionName, token, this.config.cookie.path, this.config.session.expireDays * DAY_SECONDS);
  }

  clear(response: Response): void {
    clearTokenCookie(response, this.config, this.config.cookie.sessionName, this.config.cookie.path);
  }
}

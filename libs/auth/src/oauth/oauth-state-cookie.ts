import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { readCookie } from '../http/cookies.js';
import type { OAuthSection } from './oauth-provider-client.js';

/**
 * The state cookie: HttpOnly, Secure from config, Path = the prefix (sent to svc's routes only),
 * Max-Age = the section's `stateTtlSeconds`. Always SameSite=Lax, whatever the cookie section says:
 * the callback is a top-level navigation from the provider's site, which a Strict cookie would miss.
 */
@Injectable()
export class OAuthStateCookie {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.oauthStateName);
  }

  set(response: Response, value: string, section: OAuthSection): void {
    response.cookie(this.config.cookie.oauthStateName, value, { ...this.attributes(), maxAge: section.stateTtlSeconds * 1000 });
  }

  clear(response: Response): void {
    response.clearCookie(this.config.cookie.oauthStateName, this.attributes());
  }

  private attributes() {
    return { httpOnly: true, secure: this.config.cookie.secure, sameSite: 'lax' as const, path: this.config.prefix, domain: this.config.cookie.domain };
  }
}

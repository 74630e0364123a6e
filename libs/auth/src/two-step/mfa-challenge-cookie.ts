import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { readCookie } from '../http/cookies.js';

/**
 * The challenge cookie (`svc_mfa`): HttpOnly, Secure from config, Path = the prefix (sent to svc's
 * routes only), Max-Age = `mfa.challengeTtlSeconds`. SameSite=Lax whatever the cookie section says:
 * a challenged provider login sets it on the callback, a top-level navigation from the provider's site.
 */
@Injectable()
export class MfaChallengeCookie {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.mfaChallengeName);
  }

  set(response: Response, token: string): void {
    response.cookie(this.config.cookie.mfaChallengeName, token, { ...this.attributes(), maxAge: this.config.mfa!.challengeTtlSeconds * 1000 });
  }

  clear(response: Response): void {
    response.clearCookie(this.config.cookie.mfaChallengeName, this.attributes());
  }

  private attributes() {
    return { httpOnly: true, secure: this.config.cookie.secure, sameSite: 'lax' as const, path: this.config.prefix, domain: this.config.cookie.domain };
  }
}

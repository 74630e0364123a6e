import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { readCookie } from '../http/cookies.js';

/**
 * The challenge cookie (`svc_passkey`): HttpOnly, Secure from config, Path = the prefix (sent to
 * svc's routes only), Max-Age = `passkeys.challengeTtlSeconds`. SameSite=Strict: a ceremony runs
 * within one page of the application, never across a navigation from another site.
 */
@Injectable()
export class PasskeyChallengeCookie {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  read(request: Request): string | undefined {
    return readCookie(request, this.config.cookie.passkeyChallengeName);
  }

  set(response: Response, value: string): void {
    response.cookie(this.config.cookie.passkeyChallengeName, value, { ...this.attributes(), maxAge: this.config.passkeys!.challengeTtlSeconds * 1000 });
  }

  clear(response: Response): void {
    response.clearCookie(this.config.cookie.passkeyChallengeName, this.attributes());
  }

  private attributes() {
    return { httpOnly: true, secure: this.config.cookie.secure, sameSite: 'strict' as const, path: this.config.prefix, domain: this.config.cookie.domain };
  }
}

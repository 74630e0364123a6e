import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { ChallengeCookie } from '../login/signed-challenge.js';

/**
 * The challenge cookie (`svc_mfa`): a signed challenge's cookie (login/signed-challenge.ts), with
 * Max-Age = `mfa.challengeTtlSeconds`. SameSite=Lax whatever the cookie section says: a challenged
 * provider login sets it on the callback, a top-level navigation from the provider's site.
 */
@Injectable()
export class MfaChallengeCookie extends ChallengeCookie {
  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    super(config, { name: config.cookie.mfaChallengeName, sameSite: 'lax', ttlSeconds: () => config.mfa!.challengeTtlSeconds });
  }
}

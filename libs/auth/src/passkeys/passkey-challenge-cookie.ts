import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { ChallengeCookie } from '../login/signed-challenge.js';

/**
 * The challenge cookie (`svc_passkey`): a signed challenge's cookie (login/signed-challenge.ts),
 * with Max-Age = `passkeys.challengeTtlSeconds`. SameSite=Strict: a ceremony runs within one page
 * of the application, never across a navigation from another site.
 */
@Injectable()
export class PasskeyChallengeCookie extends ChallengeCookie {
  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    super(config, { name: config.cookie.passkeyChallengeName, sameSite: 'strict', ttlSeconds: () => config.passkeys!.challengeTtlSeconds });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import type { LoginProof, SecondFactorGate } from '../login/login-parts.js';
import { MfaChallengeCookie } from './mfa-challenge-cookie.js';
import { MfaChallengeTokens } from './mfa-challenge-token.js';

/**
 * Whether a login owes the second factor (docs/guides/two-step.md): the section is on, the user's
 * row says two-step login is on, and the login is a password one or a provider one (unless
 * `challengeProviderLogins` is false). Then it gets a challenge token and no credential. A passkey
 * login never comes here: it is two factors in one (docs/guides/passkeys.md).
 */
@Injectable()
export class MfaGate implements SecondFactorGate<string> {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly tokens: MfaChallengeTokens,
    private readonly cookie: MfaChallengeCookie,
  ) {}

  async challengeFor(user: SvcUser, proof: LoginProof): Promise<string | null> {
    const mfa = this.config.mfa;
    if (!mfa || !user.mfaTotpEnabled) return null;
    // OWASP ASVS 5.0 V6: every way in owes the second factor; false is the application's explicit choice.
    if (proof.method !== 'password' && !mfa.challengeProviderLogins) return null;
    return (await this.tokens.mint(user, proof)).token;
  }

  deliver(response: Response, token: string): void {
    this.cookie.set(response, token);
  }
}

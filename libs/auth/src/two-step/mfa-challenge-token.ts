import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { Clock } from '../config/clock.js';
import type { AuthConfig } from '../config/auth-config.js';
import { LOGIN_METHODS } from '../config/login-methods.js';
import { deriveKey } from '../crypto/derive-key.js';
import type { SvcUser } from '../entities/user.entity.js';
import type { LoginProof } from '../login/login-parts.js';
import { SignedChallenge } from '../login/signed-challenge.js';

/** RFC 8725 §3.11: an explicit type, so that no other token signed with the same key passes for this one. */
const CHALLENGE_TYPE = 'svc-mfa-challenge+jwt';

/** A login waiting for its second factor, as its challenge token says. */
export interface MfaChallenge extends LoginProof {
  userId: string;
  /** Random per challenge: the failed attempts of one challenge are counted under it. */
  challengeId: string;
  /** Binds the challenge to the password hash that was verified (docs/decisions/0009-login-and-concurrent-changes.md). */
  passwordBinding: string;
  expiresAt: Date;
}

/**
 * The challenge cookie's value: a signed challenge (login/signed-challenge.ts: a JWS, HS256 under a
 * key derived from the module's secret for this purpose only) naming the user, the challenge, how
 * the first factor was proven, and the password hash it was proven against, with its expiry
 * (`mfa.challengeTtlSeconds`), checked by the injected clock.
 */
@Injectable()
export class MfaChallengeTokens {
  private readonly signed: SignedChallenge;
  private readonly bindingKey: Buffer;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig, @Inject(AUTH_CLOCK) clock: Clock) {
    // Without the section nothing is minted, and a key of this instance alone makes sure nothing verifies either.
    const key = config.mfa?.challengeKey ?? randomBytes(32).toString('base64url');
    this.signed = new SignedChallenge(clock, { type: CHALLENGE_TYPE, key: Buffer.from(key, 'base64url'), ttlSeconds: () => config.mfa!.challengeTtlSeconds });
    this.bindingKey = Buffer.from(deriveKey(key, 'mfa challenge password binding'), 'base64url');
  }

  async mint(user: SvcUser, proof: LoginProof): Promise<{ token: string; challengeId: string }> {
    const challengeId = randomUUID();
    const token = await this.signed.mint({ mth: proof.method, prv: proof.provider, pwb: this.passwordBindingOf(user), sub: user.id, jti: challengeId });
    return { token, challengeId };
  }

  /** The challenge, if `token` is one of ours, unexpired by the injected clock; else null. */
  async verify(token: string): Promise<MfaChallenge | null> {
    const payload = await this.signed.verify(token, ['sub', 'jti']);
    if (payload === null) return null;
    const { sub, jti, mth, prv, pwb, exp } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof pwb !== 'string' || typeof exp !== 'number') return null;
    if (!LOGIN_METHODS.includes(mth as never) || (prv !== undefined && typeof prv !== 'string')) return null;
    return { userId: sub, challengeId: jti, method: mth as LoginProof['method'], provider: prv as string | undefined, passwordBinding: pwb, expiresAt: new Date(exp * 1000) };
  }

  /** An HMAC of the user's password hash (or of its absence): it changes with every reset or change of password. */
  passwordBindingOf(user: SvcUser): string {
    return createHmac('sha256', this.bindingKey).update(user.passwordHash ?? '').digest('base64url');
  }
}

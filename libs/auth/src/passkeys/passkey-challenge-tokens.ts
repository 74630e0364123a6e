import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CLOCK, AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { Clock } from '../config/clock.js';
import { SignedChallenge } from '../login/signed-challenge.js';

/** RFC 8725 §3.11: an explicit type, so that no other token signed with a key of the module passes for this one. */
const CHALLENGE_TYPE = 'svc-passkey-challenge+jwt';

/** A ceremony in progress: its challenge, what it is for, and (a registration) who started it. */
export interface PasskeyCeremony {
  challenge: string;
  purpose: 'register' | 'login' | 'reauth';
  /** The signed-in user a registration or a re-authentication is bound to. */
  userId?: string;
  expiresAt: Date;
}

/**
 * The challenge cookie's value: a signed challenge (login/signed-challenge.ts: a JWS, HS256 with a
 * key derived from `secret` for this purpose alone) carrying the challenge, the ceremony and its
 * expiry (`passkeys.challengeTtlSeconds`), checked against the injected clock. Signed, not encrypted: the challenge is no secret (the
 * options carry it to the page), only its binding to this browser and this user is.
 */
@Injectable()
export class PasskeyChallengeTokens {
  private readonly signed: SignedChallenge;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig, @Inject(AUTH_CLOCK) clock: Clock) {
    // Without the section the key is empty, and nothing verifies.
    const key = Buffer.from(config.passkeys?.challengeKey ?? '', 'base64url');
    this.signed = new SignedChallenge(clock, { type: CHALLENGE_TYPE, key, ttlSeconds: () => config.passkeys?.challengeTtlSeconds ?? 0 });
  }

  mint(ceremony: Omit<PasskeyCeremony, 'expiresAt'>): Promise<string> {
    return this.signed.mint({ chl: ceremony.challenge, pur: ceremony.purpose, ...(ceremony.userId === undefined ? {} : { sub: ceremony.userId }) });
  }

  /** The ceremony of `token` if it is a challenge token of ours for `purpose`, unexpired; else null (fails closed). */
  async verify(token: string | undefined, purpose: PasskeyCeremony['purpose']): Promise<PasskeyCeremony | null> {
    const payload = await this.signed.verify(token, []);
    if (payload === null) return null;
    const { chl, pur, sub, exp } = payload;
    if (typeof chl !== 'string' || pur !== purpose || typeof exp !== 'number') return null;
    // A login names nobody; a registration and a re-authentication are bound to the signed-in user.
    if (purpose === 'login' ? sub !== undefined : typeof sub !== 'string') return null;
    return { challenge: chl, purpose, userId: sub as string | undefined, expiresAt: new Date(exp * 1000) };
  }
}

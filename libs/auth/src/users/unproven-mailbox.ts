import { Inject, Injectable } from '@nestjs/common';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import type { SvcUser } from '../entities/user.entity.js';
import { AuthError } from '../errors/auth.error.js';
import type { AuthErrorCode } from '../errors/error-codes.js';

/** Whether a new way in waits for a proven mailbox: while email verification is on. */
function newWaysInWaitForMailbox(config: AuthConfig): boolean {
  return config.emailVerification !== undefined;
}

/** What a route that adds a way in answers for an unproven mailbox under this configuration (its OpenAPI description). */
export function newWayInRefusals(config: AuthConfig): AuthErrorCode[] {
  return newWaysInWaitForMailbox(config) ? ['EMAIL_NOT_VERIFIED'] : [];
}

/**
 * No ways in before the mailbox is proven (docs/decisions/0022-account-pre-hijacking.md): while a user's email is
 * not verified and email verification is on, linking an identity, adding a passkey and setting up
 * two-step login are refused; whoever signed up with someone else's address cannot plant a way in
 * that outlives the owner's first proof of the mailbox.
 */
@Injectable()
export class UnprovenMailbox {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  /** 403 `EMAIL_NOT_VERIFIED` for a user who may not add a way in yet. */
  refuseNewWayIn(user: SvcUser): void {
    // Sudhodanan & Paverd 2022 (pre-hijacking, "trojan identifier"); OWASP ASVS 5.0 V6: no authenticator before the identity is verified.
    if (newWaysInWaitForMailbox(this.config) && user.emailVerifiedAt === null) {
      throw new AuthError('EMAIL_NOT_VERIFIED', { message: 'Verify your email before you add a way to sign in' });
    }
  }

  /**
   * In the transaction that stores a way in, under the user's row lock: `seen` is the user the
   * request was authenticated as, `locked` the row now. A mailbox proven in between reclaimed the
   * account and ended that credential: nothing it began may be stored (401 `UNAUTHENTICATED`).
   */
  refuseAfterReclaim(seen: SvcUser, locked: SvcUser): void {
    this.refuseNewWayIn(locked);
    // Sudhodanan & Paverd 2022: a way in begun before the first proof of the mailbox is not added after it.
    if (seen.emailVerifiedAt === null && locked.emailVerifiedAt !== null) throw new AuthError('UNAUTHENTICATED');
  }
}

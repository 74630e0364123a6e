import type { Type } from '@nestjs/common';
import { EmailToken } from './email-token.entity.js';
import { MfaRecoveryCode } from './mfa-recovery-code.entity.js';
import { MfaTotp } from './mfa-totp.entity.js';
import { OAuthAccount } from './oauth-account.entity.js';
import { OAuthUsedState } from './oauth-used-state.entity.js';
import { Passkey } from './passkey.entity.js';
import { PasskeyUsedChallenge } from './passkey-used-challenge.entity.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import { RateLimitCounter } from './rate-limit-counter.entity.js';
import { RefreshFamily } from './refresh-family.entity.js';
import { RefreshToken } from './refresh-token.entity.js';
import { Session } from './session.entity.js';
import { User, type SvcUser } from './user.entity.js';

export { EmailToken, MfaRecoveryCode, MfaTotp, OAuthAccount, OAuthUsedState, Passkey, PasskeyUsedChallenge, PasswordResetToken, RateLimitCounter, RefreshFamily, RefreshToken, Session, User };
export type { SvcUser };

/** Every entity the library stores rows with, for the application's TypeORM `entities` list. */
export function authEntities(user: Type<SvcUser> = User): Type<unknown>[] {
  return [user, Session, RefreshToken, RefreshFamily, PasswordResetToken, OAuthAccount, OAuthUsedState, RateLimitCounter, EmailToken, MfaTotp, MfaRecoveryCode, Passkey, PasskeyUsedChallenge];
}

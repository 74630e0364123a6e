import type { Type } from '@nestjs/common';
import { ApiKey } from './entities/api-key.entity.js';
import { AuditEvent } from './entities/audit-event.entity.js';
import { EmailToken } from './entities/email-token.entity.js';
import { MfaRecoveryCode } from './entities/mfa-recovery-code.entity.js';
import { MfaTotp } from './entities/mfa-totp.entity.js';
import { OAuthAccount } from './entities/oauth-account.entity.js';
import { OAuthUsedState } from './oauth/oauth-used-state.entity.js';
import { Passkey } from './entities/passkey.entity.js';
import { PasskeyUsedChallenge } from './login/passkey-used-challenge.entity.js';
import { PasswordResetToken } from './password/password-reset-token.entity.js';
import { RateLimitCounter } from './rate-limit/rate-limit-counter.entity.js';
import { RefreshFamily } from './credentials/jwt/refresh-family.entity.js';
import { RefreshToken } from './credentials/jwt/refresh-token.entity.js';
import { Session } from './credentials/session/session.entity.js';
import { User, type SvcUser } from './entities/user.entity.js';
import { UserRole } from './entities/user-role.entity.js';
import { Organization } from './entities/organization.entity.js';
import { OrganizationInvitation } from './entities/organization-invitation.entity.js';
import { OrganizationMember } from './entities/organization-member.entity.js';

export { ApiKey, AuditEvent, EmailToken, MfaRecoveryCode, MfaTotp, OAuthAccount, OAuthUsedState, Organization, OrganizationInvitation, OrganizationMember, Passkey, PasskeyUsedChallenge, PasswordResetToken, RateLimitCounter, RefreshFamily, RefreshToken, Session, User, UserRole };
export type { SvcUser };

/** Every entity the library stores rows with, for the application's TypeORM `entities` list. */
export function authEntities(user: Type<SvcUser> = User): Type<unknown>[] {
  return [user, Session, RefreshToken, RefreshFamily, PasswordResetToken, OAuthAccount, OAuthUsedState, RateLimitCounter, EmailToken, MfaTotp, MfaRecoveryCode, Passkey, PasskeyUsedChallenge, UserRole, ApiKey, AuditEvent, Organization, OrganizationMember, OrganizationInvitation];
}

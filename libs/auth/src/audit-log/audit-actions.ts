/**
 * What the activity log records (docs/guides/account-security.md), one name per kind of change.
 * The API key, account deletion and organization entries are written by the features that make
 * those changes, through the same `AuditLog.record`.
 */
export const AUDIT_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'password_changed',
  'password_reset',
  'email_verified',
  'email_changed',
  'two_step_enabled',
  'two_step_disabled',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'identity_linked',
  'identity_unlinked',
  'account_reclaimed',
  'role_granted',
  'role_revoked',
  'user_deactivated',
  'user_activated',
  'impersonation_started',
  'impersonation_stopped',
  'api_key_created',
  'api_key_revoked',
  'account_deleted',
  // Organizations (docs/guides/organizations.md): the entry's user is the member the change is about.
  'organization_created',
  'organization_deleted',
  'organization_invitation_created',
  'organization_invitation_revoked',
  'organization_member_added',
  'organization_member_role_changed',
  'organization_member_removed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/**
 * What the activity log records (docs/guides/account-security.md), one name per kind of change.
 * `api_key_created`, `api_key_revoked` and `account_deleted` are written by the features that make
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
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}
